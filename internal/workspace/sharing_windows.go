//go:build windows

package workspace

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
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

// openShared opens a file for reading, sharing reads, writes and deletion
// (FILE_SHARE_DELETE, which os.Open leaves out), so that another process
// may rename a new file over it while it is read: the reader keeps the old
// bytes, the writer's rename succeeds.
func openShared(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}
