package format

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

// gramSet collects keys and the blocks holding them: an open-addressing
// hash table from key to block mask, far cheaper than a Go map for the
// hundreds of millions of inserts of a large publish. A key and its mask
// share one 16-byte slot, so that an insert costs one cache miss, not one
// per array (issue 21: the set was 10 % of a build's samples); a used
// slot's mask is never 0 (every insert ORs in a block's bit).
type gramSet struct {
	slots []gramSlot
	n     int

	// used and spare are sorted's buffers, kept from part to part.
	used, spare []gramSlot

	// recent remembers keys already added with the current block's bit
	// (key<<32 | gen): text repeats its n-grams, and a hit here costs one
	// cache-resident load where the table costs a cache miss.
	recent [1 << 13]uint64
	gen    uint32 // changes with bit and on clear, so old entries never match
	bit    uint64
}

type gramSlot struct {
	mask uint64 // 0: free
	key  uint32
}

func newGramSet() *gramSet {
	g := &gramSet{gen: 1}
	g.reset(minGramSlots)
	return g
}

func (g *gramSet) reset(size int) {
	g.slots = make([]gramSlot, size)
	g.n = 0
}

// clear empties the set, and shrinks a table (grown for a large part)
// that the last part used less than an eighth of: clearing and walking
// it would cost more than the small parts after it (issue 35).
func (g *gramSet) clear() {
	if size := len(g.slots); size > minGramSlots && g.n*8 < size {
		g.reset(max(minGramSlots, 4<<bits.Len(uint(g.n))))
	} else {
		clear(g.slots)
		g.n = 0
	}
	g.gen++
}

// minGramSlots is the table's first size.
const minGramSlots = 1 << 12

// addAll records that the block with bit holds each of keys.
func (g *gramSet) addAll(keys []uint32, bit uint64) {
	if bit != g.bit {
		g.bit = bit
		g.gen++
	}
	gen := uint64(g.gen)
	for _, key := range keys {
		slot := &g.recent[key&(uint32(len(g.recent))-1)]
		tag := uint64(key)<<32 | gen
		if *slot == tag {
			continue
		}
		*slot = tag
		g.insert(key, bit)
	}
}

// insert ORs bit (not 0) into key's mask in the table.
func (g *gramSet) insert(key uint32, bit uint64) {
	slots := g.slots
	m := uint32(len(slots) - 1)
	for i := key & m; ; i = (i + 1) & m {
		s := &slots[i]
		if s.mask == 0 {
			s.key, s.mask = key, bit
			g.n++
			if g.n*2 > len(slots) {
				g.grow()
			}
			return
		}
		if s.key == key {
			s.mask |= bit
			return
		}
	}
}

func (g *gramSet) grow() {
	old := g.slots
	g.reset(len(old) * 2)
	for _, s := range old {
		if s.mask != 0 {
			g.insert(s.key, s.mask)
		}
	}
}

// sorted returns the used slots in ascending key order, in a buffer of
// the set's that the next sorted reuses.
func (g *gramSet) sorted() []gramSlot {
	used := g.used[:0]
	for _, s := range g.slots {
		if s.mask != 0 {
			used = append(used, s)
		}
	}
	if cap(g.spare) < len(used) {
		g.spare = make([]gramSlot, cap(used))
	}
	sorted, other := sortSlots(used, g.spare[:len(used)])
	g.used, g.spare = sorted, other
	return sorted
}

// sortSlots sorts slots a by key, using b (as long as a) as a buffer: a
// radix sort, 11 bits a pass (keys are unique hashes, so no pass can be
// skipped and comparisons would cost a branch miss each). It returns the
// sorted slots and the other buffer.
func sortSlots(a, b []gramSlot) ([]gramSlot, []gramSlot) {
	if len(a) < 256 {
		slices.SortFunc(a, func(x, y gramSlot) int { return cmp.Compare(x.key, y.key) })
		return a, b
	}
	for shift := uint(0); shift < 32; shift += 11 {
		var count [1 << 11]int
		for _, s := range a {
			count[s.key>>shift&(1<<11-1)]++
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, s := range a {
			d := s.key >> shift & (1<<11 - 1)
			b[count[d]] = s
			count[d]++
		}
		a, b = b, a
	}
	return a, b
}

// maskWidth is the bytes of one block mask in a part of blocks blocks:
// the fewest of 1, 2, 4 or 8 that hold a bit per block. Small parts keep
// their gram table small this way: a key costs 4 bytes plus its mask, and
// a part of 8 blocks or fewer pays 5 bytes per key instead of 12.
func maskWidth(blocks int) int {
	switch {
	case blocks <= 8:
		return 1
	case blocks <= 16:
		return 2
	case blocks <= 32:
		return 4
	}
	return 8
}

// getMask reads a w-byte little-endian mask.
func getMask(src []byte, w int) uint64 {
	le := binary.LittleEndian
	switch w {
	case 1:
		return uint64(src[0])
	case 2:
		return uint64(le.Uint16(src))
	case 4:
		return uint64(le.Uint32(src))
	}
	return le.Uint64(src)
}

// gramRowMin is the fewest bytes a key takes in a gram section: the key
// and a 1-byte mask (a part of 8 blocks or fewer). It bounds the key count
// that a section's size allows.
const gramRowMin = 4 + 1
