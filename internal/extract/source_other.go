//go:build !unix

package extract

import (
	"io/fs"
	"os"
)

// sourceFile is a source opened for inspect: opening a file never blocks
// on these systems (Windows has no named pipes in its file systems'
// folders).
type sourceFile struct{ *os.File }

func openSource(path string) (*sourceFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &sourceFile{f}, nil
}

// stat returns the file's size, and its type when it is no regular file.
func (f *sourceFile) stat() (size int64, typ fs.FileMode, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	return st.Size(), st.Mode().Type(), nil
}
