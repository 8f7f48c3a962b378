package indexer_test

import (
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
)

// TestRate feeds finished-file counts at fake times: bursts must not swing
// the rate, a real change of speed must move it, and the time left follows.
func TestRate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// per is the number of files finished in each 500 ms step.
		per []int
		// want is the rate at the end, within ±tol.
		want, tol float64
	}{
		{"steady", repeat(60, 10), 20, 0.5},
		{"bursts of 4 then nothing", cycle(60, 20, 0, 0, 0), 10, 2.5},
		{"worker pipes burst 54/12", cycle(60, 27, 6), 33, 4},
		{"slows down from 40 to 10", append(repeat(40, 20), repeat(120, 5)...), 10, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r indexer.Rate
			done := 0
			r.Observe(t0, 0)
			if r.PerSecond() != 0 {
				t.Fatalf("rate before any file = %v", r.PerSecond())
			}
			if _, ok := r.Left(10); ok {
				t.Fatalf("Left known before any file")
			}
			lo, hi := 1e9, 0.0
			for i, n := range tc.per {
				done += n
				r.Observe(t0.Add(time.Duration(i+1)*500*time.Millisecond), done)
				if i > 20 && r.PerSecond() > 0 {
					lo, hi = min(lo, r.PerSecond()), max(hi, r.PerSecond())
				}
			}
			if got := r.PerSecond(); got < tc.want-tc.tol || got > tc.want+tc.tol {
				t.Errorf("rate = %.2f, want %.1f ± %.1f", got, tc.want, tc.tol)
			}
			if tc.name != "slows down from 40 to 10" && hi > 1.5*lo {
				t.Errorf("rate swung from %.1f to %.1f", lo, hi)
			}
			left, ok := r.Left(100)
			wantLeft := time.Duration(100 / r.PerSecond() * float64(time.Second))
			if !ok || left != wantLeft {
				t.Errorf("Left(100) = %v, %v; want %v", left, ok, wantLeft)
			}
		})
	}
}

func repeat(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func cycle(n int, vs ...int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = vs[i%len(vs)]
	}
	return out
}
