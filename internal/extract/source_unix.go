//go:build unix

package extract

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK, so that a named pipe
// put in place of a source returns at once instead of waiting for a
// writer; the descriptor is only used to stat and sniff, where the flag
// changes nothing for a regular file.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
