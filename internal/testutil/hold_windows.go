//go:build windows

package testutil

import (
	"syscall"
	"testing"
)

// HoldLikeExcel opens path as Excel opens a workbook: reading and writing,
// sharing reads only (no FILE_SHARE_DELETE), so that the file can be
// neither written by others, renamed over nor deleted, and a folder
// holding it cannot be renamed on Windows. It returns the function that
// closes it (also run at the test's end).
func HoldLikeExcel(t testing.TB, path string) (release func()) {
	t.Helper()
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, syscall.FILE_SHARE_READ, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatalf("hold %s open: %v", path, err)
	}
	closed := false
	release = func() {
		if !closed {
			closed = true
			syscall.CloseHandle(h)
		}
	}
	t.Cleanup(release)
	return release
}
