//go:build !linux

package ingest

import "os"

// peakRSSMB reports no figure: ru_maxrss is KiB only on Linux (bytes on
// macOS), and Windows' rusage has no memory field at all.
func peakRSSMB(*os.ProcessState) (float64, bool) { return 0, false }
