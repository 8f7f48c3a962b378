//go:build unix && !linux

package format

import (
	"fmt"
	"os"
	"syscall"

	"github.com/fumibako/fumibako/internal/osfile"
)

// mapFile maps a whole file read-only. The mapping stays valid after the
// file is deleted or replaced by a rename (parts are never changed in
// place, so it cannot shrink under the reader).
func mapFile(path string) ([]byte, func() error, os.FileInfo, error) {
	f, err := osfile.OpenRead(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: stat %s: %w", path, err)
	}
	size := st.Size()
	if size == 0 {
		return []byte{}, func() error { return nil }, st, nil
	}
	if size > partLimit {
		return nil, nil, nil, &MalformedError{Path: path, What: fmt.Sprintf("size %d over the limit", size)}
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: mmap %s: %w", path, err)
	}
	return data, func() error { return syscall.Munmap(data) }, st, nil
}
