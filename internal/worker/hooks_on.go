//go:build testhooks

package worker

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// faultHook lets end-to-end tests make a worker misbehave on chosen files.
// It exists only in binaries built with -tags testhooks. The environment
// variable FUMIBAKO_TEST_FAULT holds comma-separated rules
// "<action>:<substring of the file name>":
//
//	hang   sleep forever (the deadline must fire)
//	crash  exit at once with status 3, as a crashing reader would
//	oom    allocate memory until the supervisor's cap kills the worker
//	slow   sleep 300 ms (gives kill tests a wider window)
//	fifo   put a named pipe in place of the source (path) before it is
//	       read, as if it had been replaced after the crawl (Unix only)
//	gate   wait while the file named by FUMIBAKO_TEST_GATE exists, so a
//	       test decides when the file is done (a run is surely still
//	       going when it stops it, however fast the other files go)
func faultHook(name, path string) {
	for _, rule := range strings.Split(os.Getenv("FUMIBAKO_TEST_FAULT"), ",") {
		action, sub, ok := strings.Cut(rule, ":")
		if !ok || sub == "" || !strings.Contains(name, sub) {
			continue
		}
		switch action {
		case "hang":
			for {
				time.Sleep(time.Hour)
			}
		case "crash":
			os.Stderr.WriteString("fault hook: crash on " + name + "\n")
			os.Exit(3)
		case "oom":
			var keep [][]byte
			for {
				b := make([]byte, 16<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
				time.Sleep(10 * time.Millisecond)
			}
		case "slow":
			time.Sleep(300 * time.Millisecond)
		case "fifo":
			replaceWithFIFO(path)
		case "gate":
			gate := os.Getenv("FUMIBAKO_TEST_GATE")
			for gate != "" {
				if _, err := os.Stat(gate); err != nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
}

// noSystemGuard lets end-to-end tests start workers without the system's
// guard against orphans (Pdeathsig on Linux, the Job Object's
// kill-on-close on Windows), as where it does not fire, so that they show
// the worker ending by itself (issue 36). It exists only in binaries built
// with -tags testhooks: FUMIBAKO_TEST_NO_GUARD=1.
func noSystemGuard() bool { return os.Getenv("FUMIBAKO_TEST_NO_GUARD") != "" }

// testLimits gives end-to-end tests a smaller per-file text budget:
// FUMIBAKO_TEST_TEXT_BUDGET holds it in bytes (issue 36), so that a file
// over it need not hold 128 MiB of text.
func testLimits() extract.Limits {
	n, _ := strconv.ParseInt(os.Getenv("FUMIBAKO_TEST_TEXT_BUDGET"), 10, 64)
	return extract.Limits{TextBudget: n}
}
