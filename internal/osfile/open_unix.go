//go:build !windows

package osfile

import (
	"os"
	"syscall"
)

// Open is os.OpenFile without the poller's probe (the package comment);
// os.NewFile reads the descriptor's flags once.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
