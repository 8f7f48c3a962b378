//go:build windows

package workspace

import "os"

func syncDir(dir string) error { return nil }

// rename is os.Rename (MoveFileEx), which probes nothing on Windows.
func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
