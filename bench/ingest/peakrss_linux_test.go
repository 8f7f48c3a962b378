package ingest

import (
	"os"
	"syscall"
)

// peakRSSMB is the peak resident set of a finished process and its
// waited-for children, from getrusage (ru_maxrss is in KiB on Linux).
func peakRSSMB(st *os.ProcessState) (float64, bool) {
	return float64(st.SysUsage().(*syscall.Rusage).Maxrss) / 1024, true
}
