package gramset

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/textfold"
)

// TestGramSetSorted fills a gram set with random keys (0 and the largest
// among them) in blocks 0 to 63, across clears (one that drops the buffers
// of a large part) and both sorts (comparison below 256 pairs, radix
// above), and compares what Sorted returns with a map.
func TestGramSetSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New()
	for _, n := range []int{0, 1, 10, 255, 256, 3000, 200000, 10, 3000} {
		g.Clear()
		want := map[uint32]uint64{}
		for i := 0; i < n; i++ {
			key := rng.Uint32()
			switch i % 7 {
			case 0:
				key = 0
			case 1:
				key = uint32(i % 50) // repeats, in other blocks
			case 2:
				key = 1<<32 - 1
			}
			bit := uint64(1) << (i * 64 / max(n, 1))
			g.add(key, bit)
			want[key] |= bit
		}
		keys, masks := sortedKeys(g)
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

// TestGramSetAddAll adds the keys of folded lines through AddAll, line by
// line, and one by one through add: both sets hold the same keys and
// masks, and textfold.AppendKeys gives the keys textfold.ForKeys calls
// back with.
func TestGramSetAddAll(t *testing.T) {
	lines := []string{"これはペンです", "abc ABC abcd", "", "東京都の会議　ＡＢＣ", "カタカナとひらがな", "abc ABC abcd"}
	one, all := New(), New()
	for i, l := range lines {
		folded := textfold.Append(nil, []byte(l))
		bit := uint64(1) << (i / 2)
		var viaFn []uint32
		textfold.ForKeys(folded, func(k uint32) { viaFn = append(viaFn, k); one.add(k, bit) })
		keys := textfold.AppendKeys(nil, folded)
		if !slices.Equal(keys, viaFn) {
			t.Fatalf("%q: AppendKeys = %v, ForKeys calls %v", l, keys, viaFn)
		}
		all.AddAll(keys, bit)
	}
	k1, m1 := sortedKeys(one)
	k2, m2 := sortedKeys(all)
	if len(k1) == 0 || !slices.Equal(k1, k2) || !slices.Equal(m1, m2) {
		t.Fatalf("AddAll gave %d keys %v / %v, add %d keys %v / %v", len(k2), k2, m2, len(k1), k1, m1)
	}
}

// sortedKeys returns g.Sorted() as keys and masks.
func sortedKeys(g *Set) ([]uint32, []uint64) {
	var keys []uint32
	var masks []uint64
	for _, s := range g.Sorted() {
		keys, masks = append(keys, s.Key), append(masks, s.Mask)
	}
	return keys, masks
}

// add records that the block with bit holds key (AddAll of one key).
func (g *Set) add(key uint32, bit uint64) { g.AddAll([]uint32{key}, bit) }

// FuzzGramSetSorted adds keys read from the input (4 bytes each, the
// block from a fifth byte) through AddAll, in one part or across a Clear,
// and compares Sorted, with its branch-free merge and radix sort, with a
// map. Short inputs take the comparison sort; repeating them (times)
// reaches the radix sort's 256 pairs.
func FuzzGramSetSorted(f *testing.F) {
	f.Add([]byte{}, uint8(1))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 63}, uint8(30))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz0123456789"), uint8(200))
	g := New()
	f.Fuzz(func(t *testing.T, data []byte, times uint8) {
		g.Clear()
		want := map[uint32]uint64{}
		for range int(times)%64 + 1 {
			for i := 0; i+5 <= len(data); i += 5 {
				key := binary.LittleEndian.Uint32(data[i:])
				bit := uint64(1) << (data[i+4] % 64)
				g.AddAll([]uint32{key, key ^ uint32(times)}, bit)
				want[key] |= bit
				want[key^uint32(times)] |= bit
			}
		}
		keys, masks := sortedKeys(g)
		if len(keys) != len(want) || !slices.IsSorted(keys) {
			t.Fatalf("%d keys (sorted %v), want %d", len(keys), slices.IsSorted(keys), len(want))
		}
		for i, k := range keys {
			if masks[i] != want[k] {
				t.Fatalf("key %#x has mask %#x, want %#x", k, masks[i], want[k])
			}
		}
	})
}
