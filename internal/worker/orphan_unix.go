//go:build !windows

package worker

import (
	"os"
	"time"
)

// parentPoll is how often a worker looks at its parent.
const parentPoll = 500 * time.Millisecond

// watchParent calls gone once the process parent is no longer this
// process's parent: it ended and the worker was given to another (init,
// a subreaper). Polling getppid works on every Unix, macOS included; on
// Linux the worker also has Pdeathsig (proc_linux.go).
func watchParent(parent int, gone func()) {
	go func() {
		for os.Getppid() == parent {
			time.Sleep(parentPoll)
		}
		gone()
	}()
}
