//go:build !windows

package osfile

import (
	"os"
	"syscall"
)

// Open is os.OpenFile without the poller's probe (the package comment);
// os.NewFile reads the descriptor's flags once.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := openFD(path, flag, perm)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openFD opens path close-on-exec (workers and converters inherit
// nothing), again when a signal interrupts the call.
func openFD(path string, flag int, perm os.FileMode) (int, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		switch err {
		case nil:
			return fd, nil
		case syscall.EINTR:
			continue
		}
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
}

// Pipe returns f, an inherited pipe (a worker's stdin or stdout), as a
// file read and written through the runtime's poller, and f itself when it
// is no pipe. A worker's request pipe is blocking as it inherits it: a
// read that waits for the next request holds the worker's one P in a
// system call until the runtime's monitor takes it back (it looks every
// 20 µs while it does so) and hands it to another thread, a wake-up and
// two context switches per request (issue 35). Through the poller the
// reading goroutine parks and the thread that ran it runs the next.
func Pipe(f *os.File) *os.File {
	fd := f.Fd()
	var st syscall.Stat_t
	if syscall.Fstat(int(fd), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO || syscall.SetNonblock(int(fd), true) != nil {
		return f
	}
	// NewFile sees the descriptor non-blocking and polls it.
	return os.NewFile(fd, f.Name())
}
