package worker

import "golang.org/x/sys/unix"

// TotalMemory returns the machine's physical memory in bytes (sysctl
// hw.memsize); ok is false when it cannot be read.
func TotalMemory() (total uint64, ok bool) {
	n, err := unix.SysctlUint64("hw.memsize")
	return n, err == nil && n > 0
}
