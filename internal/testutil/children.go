package testutil

import (
	"testing"
	"time"
)

// ChildrenOf returns the ids of the running processes whose parent is pid
// (children_*.go: /proc on Linux, ps on other Unix systems, a Toolhelp
// snapshot on Windows), so that a test can name the workers of a
// coordinator before it kills it.
func ChildrenOf(pid int) []int { return childrenOf(pid) }

// Threads returns the number of threads of process pid (0 when unknown):
// a Go program runs several once its runtime is up, so a test can wait
// until a process it started runs its own code.
func Threads(pid int) int { return threads(pid) }

// WaitGone waits up to d for every process of pids to end (a zombie
// counts as ended: its reaper may be a container's first process, which
// never reaps) and returns those still running.
func WaitGone(tb testing.TB, pids []int, d time.Duration) []int {
	tb.Helper()
	deadline := time.Now().Add(d)
	for {
		var left []int
		for _, p := range pids {
			if running(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}
