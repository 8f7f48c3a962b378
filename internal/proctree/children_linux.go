package proctree

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Children maps each process id to its children, from the parent ids in
// /proc/<pid>/stat.
func Children() map[int][]int {
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
	return children
}
