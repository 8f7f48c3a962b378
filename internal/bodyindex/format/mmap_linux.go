//go:build linux

package format

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// On Linux parts are opened with plain system calls and manifests through
// osfile: os.Open adds several fcntl calls and a failed epoll registration
// per file, which a search over hundreds of folders pays hundreds of times.

// mapFile maps a whole file read-only. The mapping stays valid after the
// file is deleted or replaced by a rename (parts are never changed in
// place, so it cannot shrink under the reader).
func mapFile(path string) ([]byte, func() error, os.FileInfo, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: stat %s: %w", path, err)
	}
	info := &rawInfo{name: path, size: st.Size, mtime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))}
	if st.Size == 0 {
		return []byte{}, func() error { return nil }, info, nil
	}
	if st.Size > partLimit {
		return nil, nil, nil, &MalformedError{Path: path, What: fmt.Sprintf("size %d over the limit", st.Size)}
	}
	data, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: mmap %s: %w", path, err)
	}
	return data, func() error { return syscall.Munmap(data) }, info, nil
}

// rawInfo is the os.FileInfo of mapFile.
type rawInfo struct {
	name  string
	size  int64
	mtime time.Time
}

func (i *rawInfo) Name() string       { return i.name }
func (i *rawInfo) Size() int64        { return i.size }
func (i *rawInfo) Mode() fs.FileMode  { return 0o444 }
func (i *rawInfo) ModTime() time.Time { return i.mtime }
func (i *rawInfo) IsDir() bool        { return false }
func (i *rawInfo) Sys() any           { return nil }
