// Package osfile opens and reads files with the fewest system calls, for
// the paths that do it once per file of a share: the workspace's own files
// and the worker's reads of source files (issue 35).
//
// os.OpenFile makes every descriptor non-blocking, offers it to epoll
// (which refuses a regular file or a folder with EPERM) and makes it
// blocking again: four fcntl and a failing epoll_ctl per open. Open skips
// that probe on Unix; files are opened close-on-exec there (workers and
// converters inherit nothing). io.ReadAll grows its buffer from 512 bytes,
// one read per doubling (eight for 20 KB); ReadAll reads into a buffer of
// the size the file said it had, in two reads. Pipe turns the blocking
// pipes a worker inherits into polled ones; OpenNoBlock opens a source
// that a named pipe may have replaced, as a bare descriptor on Unix.
package osfile

import (
	"io"
	"os"
)

// OpenRead opens path for reading (Open).
func OpenRead(path string) (*os.File, error) { return Open(path, os.O_RDONLY, 0) }

// ReadFile is os.ReadFile through OpenRead and ReadAll.
func ReadFile(path string) ([]byte, error) {
	f, err := OpenRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return ReadAll(f, st.Size(), -1)
}

// ReadAll reads f to its end, sized for size bytes (what a stat of f
// said), and stops once it holds limit+1 bytes (limit < 0: no limit): the
// caller tells a file that grew past its limit by the length.
func ReadAll(f *os.File, size, limit int64) ([]byte, error) {
	// At least 512 bytes, as os.ReadFile: files under /proc say 0.
	n := max(size+1, 512)
	if limit >= 0 {
		n = min(n, limit+1)
	}
	data := make([]byte, 0, n)
	for {
		end := cap(data)
		if limit >= 0 {
			end = int(min(int64(end), limit+1))
		}
		n, err := f.Read(data[len(data):end])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if limit >= 0 && int64(len(data)) > limit {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
