//go:build unix

package osfile

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Descriptor is a file opened by OpenNoBlock: on Unix the bare
// descriptor, opened read-only with O_NONBLOCK, so that a named pipe put
// in place of a file returns at once instead of waiting for a writer (the
// flag changes nothing for a regular file). Not an *os.File: os.NewFile
// reads the descriptor's flags and offers a non-blocking one to the
// poller, which refuses a regular file, two system calls of a small
// file's eight in the worker (issue 35); the worker's sniff of a source
// needs only a stat and one or two reads.
type Descriptor struct {
	fd   int
	path string
}

// OpenNoBlock opens path read-only without waiting for a writer when it
// is a named pipe (Descriptor).
func OpenNoBlock(path string) (*Descriptor, error) {
	fd, err := openFD(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return &Descriptor{fd: fd, path: path}, nil
}

// SizeAndType returns the file's size, and its type when it is no regular
// file (as os.FileMode.Type gives it).
func (f *Descriptor) SizeAndType() (size int64, typ fs.FileMode, err error) {
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(f.fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, 0, &os.PathError{Op: "stat", Path: f.path, Err: err}
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		typ = fs.ModeDir
	case syscall.S_IFIFO:
		typ = fs.ModeNamedPipe
	case syscall.S_IFCHR:
		typ = fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		typ = fs.ModeDevice
	case syscall.S_IFSOCK:
		typ = fs.ModeSocket
	case syscall.S_IFLNK:
		typ = fs.ModeSymlink
	default:
		typ = fs.ModeIrregular
	}
	return st.Size, typ, nil
}

// Read is io.Reader's Read: io.EOF at the end.
func (f *Descriptor) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt is io.ReaderAt's ReadAt: p filled, or io.EOF where the file ends
// first.
func (f *Descriptor) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Pread(f.fd, p[done:], off+int64(done))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return done, &os.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

func (f *Descriptor) Close() error { return syscall.Close(f.fd) }
