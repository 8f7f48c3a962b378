package extract

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
