//go:build testhooks && unix

package worker

import (
	"os"
	"syscall"
)

// replaceWithFIFO removes the file at path and makes a named pipe there
// (the fault hook "fifo").
func replaceWithFIFO(path string) {
	if err := os.Remove(path); err != nil {
		os.Stderr.WriteString("fault hook: " + err.Error() + "\n")
		return
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		os.Stderr.WriteString("fault hook: " + err.Error() + "\n")
	}
}
