//go:build unix

package extract

import (
	"os"
	"syscall"

	"github.com/fumibako/fumibako/internal/osfile"
)

// openNoBlock opens path read-only with O_NONBLOCK, so that a named pipe
// put in place of a source returns at once instead of waiting for a
// writer; the descriptor is only used to stat and sniff, where the flag
// changes nothing for a regular file (osfile.Open: without os.OpenFile's
// poller probe).
func openNoBlock(path string) (*os.File, error) {
	return osfile.Open(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
