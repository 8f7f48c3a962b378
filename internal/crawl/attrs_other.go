//go:build !windows

package crawl

import "io/fs"

// OSAttributes returns the attribute provider of this OS. On Linux and
// macOS no attribute reliably marks a cloud-only placeholder (sync clients
// there use FUSE or File Provider folders that look like ordinary files), so
// no file is cloud-only; hidden items are the dot names the crawl already
// skips.
func OSAttributes() Attributes { return plainAttrs{} }

type plainAttrs struct{}

func (plainAttrs) Hidden(string, fs.FileInfo) bool    { return false }
func (plainAttrs) CloudOnly(string, fs.FileInfo) bool { return false }

func (plainAttrs) ReparsePoint(string, fs.FileInfo) (Reparse, bool) { return Reparse{}, false }
