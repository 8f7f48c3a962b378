package worker_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/fumibako/fumibako/internal/worker"
)

// TestTotalMemoryWindows: GlobalMemoryStatusEx answers, with a plausible
// total. Under Wine the Linux host's /proc/meminfo is visible as
// Z:\proc\meminfo, and the total must be its MemTotal (Wine reads it from
// there); on real Windows there is no second source to compare with, so
// only the plausibility is checked.
func TestTotalMemoryWindows(t *testing.T) {
	total, ok := worker.TotalMemory()
	if !ok {
		t.Fatal("TotalMemory: GlobalMemoryStatusEx gave no total")
	}
	if total < 64<<20 || total > 1<<50 {
		t.Fatalf("TotalMemory = %d bytes, implausible", total)
	}
	t.Logf("TotalMemory = %d MiB; default cap with 2 workers: %d MiB", total>>20, worker.DefaultMemLimit(total, 2)>>20)
	data, err := os.ReadFile(`Z:\proc\meminfo`)
	if err != nil {
		t.Logf("no host /proc/meminfo (real Windows): plausibility only")
		return
	}
	var kb uint64
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
			break
		}
	}
	if kb == 0 {
		t.Fatalf("no MemTotal in the host's /proc/meminfo")
	}
	want := kb << 10
	if diff := int64(total) - int64(want); diff > int64(want/100) || -diff > int64(want/100) {
		t.Errorf("TotalMemory = %d bytes, the host's MemTotal is %d bytes", total, want)
	}
}
