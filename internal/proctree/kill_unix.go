//go:build unix

package proctree

import "syscall"

// KillTree stops pid, kills every process below it, then kills pid
// itself. Stopping the root first keeps it from starting new children while
// the tree is walked (oosplash restarts soffice.bin in some cases).
func KillTree(pid int) {
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	for _, p := range Descendants(pid) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
