//go:build !unix

package osfile

import (
	"io/fs"
	"os"
)

// Descriptor is a file opened by OpenNoBlock: opening a file never blocks
// on these systems (Windows has no named pipes in its file systems'
// folders).
type Descriptor struct{ *os.File }

// OpenNoBlock opens path read-only (Descriptor).
func OpenNoBlock(path string) (*Descriptor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &Descriptor{f}, nil
}

// SizeAndType returns the file's size, and its type when it is no regular
// file.
func (f *Descriptor) SizeAndType() (size int64, typ fs.FileMode, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	return st.Size(), st.Mode().Type(), nil
}
