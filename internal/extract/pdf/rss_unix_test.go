//go:build unix

package pdf

import (
	"os/exec"
	"runtime"
	"syscall"
)

// peakRSS is the finished process's peak resident memory in bytes (0
// where the system does not say).
func peakRSS(c *exec.Cmd) int64 {
	ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) << 10 // KiB
}
