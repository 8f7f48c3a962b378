package extract

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// loKillTree stops pid, kills every process below it (found through the
// parent ids in /proc/<pid>/stat), then kills pid itself. Stopping the root
// first keeps it from starting new children while the tree is walked
// (oosplash restarts soffice.bin in some cases).
func loKillTree(pid int) {
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	for _, p := range loDescendants(pid) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// loDescendants lists the processes below pid, deepest last.
func loDescendants(pid int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, err1 := strconv.Atoi(f[1])
		p, err2 := strconv.Atoi(filepath.Base(filepath.Dir(s)))
		if err1 == nil && err2 == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
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
