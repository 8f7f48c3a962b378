package search

// SetBlockFileMin lets tests read every scanned block with plain reads.
func SetBlockFileMin(n int) (restore func()) {
	old := blockFileMin
	blockFileMin = n
	return func() { blockFileMin = old }
}
