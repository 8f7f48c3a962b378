package libreoffice

import "os"

// descendants lists the processes below pid, deepest last (children is
// per OS: /proc on Linux, ps elsewhere).
func descendants(pid int) []int {
	children := children()
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

// KillConverters kills every process this process started, with what
// they started (the converters a worker keeps warm), at once and without
// waiting for a conversion in progress: a worker whose coordinator is gone
// ends them before it exits (issue 36), whether or not the system ends
// them with it (Pdeathsig on Linux, the Job Object on Windows).
func KillConverters() {
	for _, c := range children()[os.Getpid()] {
		killTree(c)
	}
}
