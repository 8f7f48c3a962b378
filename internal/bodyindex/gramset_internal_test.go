package bodyindex

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGramSetSorted fills a gram set with random keys (0 among them) in
// random blocks, across growth, clears and both sorts (comparison below
// 256 keys, radix above), and compares what sorted returns with a map.
func TestGramSetSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := newGramSet()
	for _, n := range []int{0, 1, 10, 255, 256, 3000, 200000} {
		g.clear()
		want := map[uint32]uint64{}
		for i := 0; i < n; i++ {
			key := rng.Uint32()
			switch i % 7 {
			case 0:
				key = 0
			case 1:
				key = uint32(i % 50) // repeats, in other blocks
			}
			bit := uint64(1) << (i * 64 / max(n, 1))
			g.add(key, bit)
			want[key] |= bit
		}
		keys, masks := g.sorted()
		if len(keys) != len(want) || !slices.IsSorted(keys) {
			t.Fatalf("%d adds: %d keys (sorted %v), want %d", n, len(keys), slices.IsSorted(keys), len(want))
		}
		for i, k := range keys {
			if masks[i] != want[k] {
				t.Fatalf("%d adds: key %#x has mask %#x, want %#x", n, k, masks[i], want[k])
			}
		}
	}
}
