//go:build testhooks

package share

import (
	"os"
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
