//go:build testhooks && linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// atExit writes the process's own peak resident memory, in bytes, to
// $FUMIBAKO_TEST_PEAK_RSS.<pid>, for the end-to-end tests that bound the
// coordinator's and the server's memory (issue 36). It reads VmHWM of
// /proc/self/status, the high-water mark of this program's memory since
// it was started: getrusage's ru_maxrss would add the workers' and, when
// the parent started it with vfork (as Go's os/exec does), the parent's
// size at that moment. Only in binaries built with -tags testhooks, on
// Linux.
func atExit() {
	base := os.Getenv("FUMIBAKO_TEST_PEAK_RSS")
	if base == "" {
		return
	}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				os.WriteFile(fmt.Sprintf("%s.%d", base, os.Getpid()), []byte(strconv.FormatInt(kb<<10, 10)), 0o644)
			}
			return
		}
	}
}
