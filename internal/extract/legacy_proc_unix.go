//go:build unix

package extract

import "syscall"

// loKillTree stops pid, kills every process below it, then kills pid
// itself. Stopping the root first keeps it from starting new children while
// the tree is walked (oosplash restarts soffice.bin in some cases).
func loKillTree(pid int) {
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	for _, p := range loDescendants(pid) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// loDescendants lists the processes below pid, deepest last (loChildren is
// per OS: /proc on Linux, ps elsewhere).
func loDescendants(pid int) []int {
	children := loChildren()
	var out []int
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}
