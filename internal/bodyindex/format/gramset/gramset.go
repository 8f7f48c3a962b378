// Package gramset is the gram table of a body-index part while the
// encoder builds it (package bodyindex/format): the gram keys the part's
// lines hold and, for each, the mask of the blocks holding it. A part
// adds a line's keys with its block's bit (AddAll) and, when it ends,
// takes the keys in ascending order with their masks (Sorted), which the
// part's gram section stores.
package gramset

import (
	"cmp"
	"math/bits"
	"slices"
)

// Set collects keys and the blocks holding them. Each key a block
// adds is appended as a pair (key<<8 | block) and the pairs are sorted
// once, when the part ends, by a radix sort; equal keys' blocks are then
// ORed into one mask. Appending costs no cache miss, where inserting into
// a hash table (as the set did before issue 35) cost one per key: the
// table was 40 % of the encoder's time on small files. The pairs are
// sorted with no more memory traffic than the table's used slots were.
type Set struct {
	pairs []uint64 // key<<8 | block index, in the order added

	// spare is the radix sort's other buffer, out what Sorted returns:
	// kept from part to part.
	spare []uint64
	out   []Slot

	// recent remembers keys already added with the current block's bit
	// (key<<32 | gen): text repeats its n-grams, and a hit here costs one
	// cache-resident load where a pair costs its sort.
	recent [1 << 15]uint64
	gen    uint32 // changes with bit and on Clear, so old entries never match
	bit    uint64
}

// Slot is one key of a part's gram table and the mask of its blocks
// (block i has bit 1<<i).
type Slot struct {
	Mask uint64
	Key  uint32
}

// New returns an empty set.
func New() *Set { return &Set{gen: 1} }

// Clear empties the set, and drops buffers grown for a large part that
// the last part used less than an eighth of (issue 35).
func (g *Set) Clear() {
	if cap(g.pairs) > minGramPairs && len(g.pairs)*8 < cap(g.pairs) {
		g.pairs, g.spare, g.out = nil, nil, nil
	}
	g.pairs = g.pairs[:0]
	g.gen++
}

// minGramPairs is the most pairs whose buffers Clear always keeps.
const minGramPairs = 1 << 16

// AddAll records that the block with bit (one bit: block i has 1<<i)
// holds each of keys.
func (g *Set) AddAll(keys []uint32, bit uint64) {
	if bit != g.bit {
		g.bit = bit
		g.gen++
	}
	gen := uint64(g.gen)
	block := uint64(bits.TrailingZeros64(bit))
	// Each pair is written, and counted only when its key is not a repeat:
	// a branch on that (nine keys in ten are) missed often (issue 35).
	n := len(g.pairs)
	pairs := slices.Grow(g.pairs, len(keys))[:n+len(keys)]
	for _, key := range keys {
		slot := &g.recent[key&(uint32(len(g.recent))-1)]
		tag := uint64(key)<<32 | gen
		var first int
		if *slot != tag {
			first = 1
		}
		*slot = tag
		pairs[n] = uint64(key)<<8 | block
		n += first
	}
	g.pairs = pairs[:n]
}

// Sorted returns the keys added since the last Clear, ascending, each
// with the mask of the blocks that added it, in a buffer of the set's
// that the next Sorted reuses.
func (g *Set) Sorted() []Slot {
	if cap(g.spare) < len(g.pairs) {
		g.spare = make([]uint64, cap(g.pairs))
	}
	sorted, other := sortPairs(g.pairs, g.spare[:len(g.pairs)])
	g.pairs, g.spare = sorted[:0], other
	if len(sorted) == 0 {
		return g.out[:0]
	}
	// Equal keys' masks are ORed without a branch on whether the key
	// changed (it did at random, a branch miss half the time): the run so
	// far is stored at out[n] on every pair and n moves on when the key
	// changes, leaving the finished run behind.
	out := slices.Grow(g.out[:0], len(sorted)+1)[:len(sorted)+1]
	n, key, mask := 0, uint32(sorted[0]>>8), uint64(0)
	for _, p := range sorted {
		k := uint32(p >> 8)
		var changed uint64
		if k != key {
			changed = 1
		}
		out[n] = Slot{Mask: mask, Key: key}
		n += int(changed)
		mask = mask&(changed-1) | 1<<(p&63)
		key = k
	}
	out[n] = Slot{Mask: mask, Key: key}
	out = out[:n+1]
	g.out = out
	return out
}

// sortPairs sorts pairs a by key (bits 8 to 39), using b (as long as a)
// as a buffer: a radix sort, 11 bits a pass (keys are hashes, so no pass
// can be skipped, and comparisons would cost a branch miss each). It
// returns the sorted pairs and the other buffer.
func sortPairs(a, b []uint64) ([]uint64, []uint64) {
	if len(a) < 256 {
		slices.SortFunc(a, func(x, y uint64) int { return cmp.Compare(x>>8, y>>8) })
		return a, b
	}
	// The three digits' counts are taken in one read of the pairs, not
	// one read per pass; they are 32-bit (a part holds far fewer than 2^32
	// pairs), so the counts a part zeroes are 24 KB, not 48.
	var count [3][1 << 11]uint32
	for _, p := range a {
		count[0][p>>8&(1<<11-1)]++
		count[1][p>>19&(1<<11-1)]++
		count[2][p>>30&(1<<11-1)]++
	}
	for d := range count {
		pos := uint32(0)
		for i, c := range count[d] {
			count[d][i] = pos
			pos += c
		}
	}
	for d, shift := range [3]uint{8, 19, 30} {
		next := &count[d]
		for _, p := range a {
			i := p >> shift & (1<<11 - 1)
			b[next[i]] = p
			next[i]++
		}
		a, b = b, a
	}
	return a, b
}
