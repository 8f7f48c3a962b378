//go:build !windows

package osfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/osfile"
)

// TestPipe gives Pipe a blocking pipe, as a worker inherits its stdin and
// stdout, and a regular file: the pipe comes back polled (a deadline
// applies to it, and the bytes written at one end are read at the other),
// the file as it was.
func TestPipe(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r0, w0 := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	defer r0.Close()
	defer w0.Close()
	if err := r0.SetReadDeadline(time.Now()); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("the blocking pipe takes a deadline (%v): the test does not test", err)
	}
	r, w := osfile.Pipe(r0), osfile.Pipe(w0)
	if err := r.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatalf("Pipe's read end takes no deadline: %v", err)
	}
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline = %v, want %v", err, os.ErrDeadlineExceeded)
	}
	if err := r.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("文箱\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != "文箱\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := osfile.Pipe(f); got != f {
		t.Fatalf("Pipe(regular file) = %v, want the file itself", got)
	}
}
