package main

import (
	"os"
	"syscall"
)

// rusage returns what a finished process read from the disk (inblock, in
// 512-byte units) and its ru_maxrss, in MB.
func rusage(ps *os.ProcessState) (readMB, maxMB float64) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0
	}
	return float64(ru.Inblock) * 512 / 1e6, float64(ru.Maxrss) / 1024
}
