//go:build !linux && !darwin && !windows

package pdf

// reserve: elsewhere the module grows in the Go heap.
func reserve(limit int64) osMemory { return &heapMemory{limit: int(limit)} }
