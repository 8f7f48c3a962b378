package libreoffice

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
