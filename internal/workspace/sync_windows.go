//go:build windows

package workspace

import "os"

func syncDir(dir string) error { return nil }

// openFile is os.OpenFile: Windows has no poller probe to spare (the
// Unix version's comment).
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// rename is os.Rename (MoveFileEx), which probes nothing on Windows.
func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
