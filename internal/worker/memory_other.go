//go:build !linux && !darwin && !windows

package worker

// TotalMemory is unknown on these systems: the workers get MemCeiling.
func TotalMemory() (total uint64, ok bool) { return 0, false }
