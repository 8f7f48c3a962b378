//go:build testhooks

package share

import (
	"os"
	"strconv"
	"syscall"
)

// crashPoint kills the process at a named step of an import (doc.go),
// when FUMIBAKO_TEST_CRASH_AT names it. Only in binaries built with -tags
// testhooks (the indexer's crash points read the same variable).
func crashPoint(name string) {
	if os.Getenv("FUMIBAKO_TEST_CRASH_AT") != name {
		return
	}
	p, _ := os.FindProcess(os.Getpid())
	if p.Signal(syscall.Signal(9)) != nil {
		os.Exit(137)
	}
	select {}
}

// FUMIBAKO_TEST_FREE_SPACE=<bytes> fakes the free space of the workspace's
// disk (end-to-end tests of the refusal where no small disk can be
// mounted).
func init() {
	if v := os.Getenv("FUMIBAKO_TEST_FREE_SPACE"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err == nil {
			freeSpace = func(string) (uint64, error) { return n, nil }
		}
	}
}
