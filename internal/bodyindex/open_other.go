//go:build !windows

package bodyindex

import "os"

// openShared opens a file for reading; on Unix an open file never stops
// its replacement or removal.
func openShared(path string) (*os.File, error) { return os.Open(path) }
