//go:build windows

package osfile

import "os"

// Open is os.OpenFile: Windows has no poller probe to spare.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// Pipe returns f: Windows has no poller for pipes (the Unix Pipe).
func Pipe(f *os.File) *os.File { return f }
