//go:build unix

package osfile_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fumibako/fumibako/internal/osfile"
)

// TestOpenNoBlock: the bare descriptor the worker sniffs sources through
// says what an *os.File says: the size and type of a file, a folder and a named pipe,
// the bytes of Read to io.EOF and of ReadAt inside the file, across its
// end and past it, and a missing file's error.
func TestOpenNoBlock(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789"), 1000)
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "p.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		size int64
		typ  fs.FileMode
	}{{file, int64(len(data)), 0}, {dir, -1, fs.ModeDir}, {fifo, 0, fs.ModeNamedPipe}} {
		f, err := osfile.OpenNoBlock(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		size, typ, err := f.SizeAndType()
		if err != nil || typ != tt.typ || (tt.size >= 0 && size != tt.size) {
			t.Errorf("%s: stat = %d, %v, %v; want %d, %v", tt.path, size, typ, err, tt.size, tt.typ)
		}
		f.Close()
	}
	f, err := osfile.OpenNoBlock(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(all, data) {
		t.Errorf("Read to the end: %d bytes, %v; want %d", len(all), err, len(data))
	}
	for _, tt := range []struct {
		off, n int
		want   int
		err    error
	}{{0, 10, 10, nil}, {9990, 10, 10, nil}, {9995, 10, 5, io.EOF}, {10000, 4, 0, io.EOF}, {20000, 4, 0, io.EOF}} {
		p := make([]byte, tt.n)
		n, err := f.ReadAt(p, int64(tt.off))
		if n != tt.want || !errors.Is(err, tt.err) || !bytes.Equal(p[:n], data[min(tt.off, len(data)):min(tt.off+n, len(data))]) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v; want %d, %v", tt.n, tt.off, n, err, tt.want, tt.err)
		}
	}
	if _, err := osfile.OpenNoBlock(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenNoBlock of a missing file: %v, want fs.ErrNotExist", err)
	}
}
