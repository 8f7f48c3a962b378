//go:build windows

package main

import (
	"syscall"
	"testing"
)

// holdLikeExcel opens path as Excel opens a workbook: reading and writing,
// sharing reads only, so that it can be neither written by others nor
// renamed over. It returns the function that closes it.
func holdLikeExcel(t *testing.T, _ *fixture, path string) func() {
	t.Helper()
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, syscall.FILE_SHARE_READ, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	release := func() {
		if !closed {
			closed = true
			syscall.CloseHandle(h)
		}
	}
	t.Cleanup(release)
	return release
}
