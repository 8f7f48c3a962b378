//go:build windows

package osfile

import "os"

// Open is os.OpenFile: Windows has no poller probe to spare.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
