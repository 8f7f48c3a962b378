//go:build windows

package workspace

import (
	"errors"
	"syscall"
)

// isSharingError reports whether err is one that another process holding
// the file causes and that goes away when it lets go.
func isSharingError(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && sharingCode(uintptr(errno))
}

// osFaultKind classifies Windows' own error codes.
func osFaultKind(errno syscall.Errno) (FaultKind, bool) {
	return windowsFaultKind(uintptr(errno))
}
