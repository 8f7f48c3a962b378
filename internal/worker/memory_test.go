package worker_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/worker"
)

// TestDefaultMemLimit: without a setting each worker's cap is its part of
// a quarter of the machine's memory, between 512 MiB and 2 GiB.
func TestDefaultMemLimit(t *testing.T) {
	const (
		mib = 1 << 20
		gib = 1 << 30
	)
	tests := []struct {
		name    string
		total   uint64
		workers int
		want    int64
	}{
		{"8 GB office PC, 2 workers", 8 * gib, 2, 1 * gib},
		{"8 GB office PC, 4 workers", 8 * gib, 4, 512 * mib},
		{"12 GB, 2 workers", 12 * gib, 2, 1536 * mib},
		{"24 GB, 2 workers: the ceiling", 24 * gib, 2, 2 * gib},
		{"64 GB, 1 worker: the ceiling", 64 * gib, 1, 2 * gib},
		{"4 GB, 4 workers: the floor", 4 * gib, 4, 512 * mib},
		{"2 GB, 8 workers: the floor", 2 * gib, 8, 512 * mib},
		{"unknown total", 0, 2, 2 * gib},
		{"no worker count", 8 * gib, 0, 2 * gib},
	}
	for _, tt := range tests {
		if got := worker.DefaultMemLimit(tt.total, tt.workers); got != tt.want {
			t.Errorf("%s: DefaultMemLimit(%d, %d) = %d MiB, want %d MiB", tt.name, tt.total, tt.workers, got/mib, tt.want/mib)
		}
	}
	if total, ok := worker.TotalMemory(); ok && total < 64<<20 {
		t.Errorf("TotalMemory = %d bytes, implausible", total)
	}
}
