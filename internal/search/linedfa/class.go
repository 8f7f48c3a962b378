package linedfa

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"
)

// template is a rune class compiled once with its exit left open, so
// that x{100} or a class used twice copies states instead of encoding
// and merging the class again. A transition's next is an index into
// states, or -1 for the exit.
type template struct {
	states    [][]btrans
	entry     int32
	ntrans    int
	needValid bool // the class holds U+FFFD
}

// template returns the compiled class of pairs (lo, hi).
func (b *builder) template(pairs []rune) *template {
	b.key = b.key[:0]
	for _, r := range pairs {
		b.key = binary.LittleEndian.AppendUint32(b.key, uint32(r))
	}
	tm, ok := b.classes[string(b.key)]
	if !ok {
		tm = newTemplate(pairs)
		if b.classes == nil {
			b.classes = map[string]*template{}
		}
		b.classes[string(b.key)] = tm
	}
	return tm
}

// class compiles a rune class (pairs lo, hi) followed by next.
func (b *builder) class(pairs []rune, next int32) int32 {
	tm := b.template(pairs)
	b.needValid = b.needValid || tm.needValid
	if len(b.states)+len(tm.states) > maxStates {
		b.err = ErrTooLarge
		return 0
	}
	base := int32(len(b.states))
	buf := make([]btrans, tm.ntrans)
	for _, ts := range tm.states {
		trans := buf[:len(ts):len(ts)]
		buf = buf[len(ts):]
		for i, t := range ts {
			if t.next < 0 {
				t.next = next
			} else {
				t.next += base
			}
			trans[i] = t
		}
		b.states = append(b.states, nstate{trans: trans})
	}
	return base + tm.entry
}

// newTemplate compiles a class: LF is removed (a line never holds it),
// the scalar values are encoded as byte sequences, and the sequences are
// merged into a trie whose equal subtrees are shared, so [ぁ-ん] costs a
// few states.
func newTemplate(pairs []rune) *template {
	tm := &template{}
	var seqs []byteSeq
	for _, r := range scalarRanges(pairs) {
		if r.lo <= utf8.RuneError && utf8.RuneError <= r.hi {
			tm.needValid = true
		}
		if r.lo <= '\n' && '\n' <= r.hi {
			if r.lo < '\n' {
				seqs = appendSeqs(seqs, runeRange{r.lo, '\n' - 1})
			}
			if r.hi > '\n' {
				seqs = appendSeqs(seqs, runeRange{'\n' + 1, r.hi})
			}
			continue
		}
		seqs = appendSeqs(seqs, r)
	}
	// The trie: node 0 is the root; an edge's child -1 is the exit.
	type edge struct {
		r     byteRange
		child int32
	}
	nodes := [][]edge{nil}
	for _, s := range seqs {
		cur := int32(0)
		for k := range s.n {
			last := k == s.n-1
			found := int32(-2)
			for _, e := range nodes[cur] {
				if e.r == s.r[k] && (e.child < 0) == last {
					found = e.child
					break
				}
			}
			if found == -2 {
				found = -1
				if !last {
					nodes = append(nodes, nil)
					found = int32(len(nodes) - 1)
				}
				nodes[cur] = append(nodes[cur], edge{s.r[k], found})
			}
			cur = found
		}
	}
	// Emit the trie bottom-up, one state per distinct transition list.
	memo := map[string]int32{}
	var emit func(n int32) int32
	emit = func(n int32) int32 {
		trans := make([]btrans, len(nodes[n]))
		key := make([]byte, 0, len(trans)*16)
		for i, e := range nodes[n] {
			t := int32(-1)
			if e.child >= 0 {
				t = emit(e.child)
			}
			trans[i] = btrans{e.r.lo, e.r.hi, t}
			key = append(key, e.r.lo, e.r.hi)
			key = strconv.AppendInt(key, int64(t), 10)
			key = append(key, ',')
		}
		if id, ok := memo[string(key)]; ok {
			return id
		}
		tm.states = append(tm.states, trans)
		tm.ntrans += len(trans)
		id := int32(len(tm.states) - 1)
		memo[string(key)] = id
		return id
	}
	tm.entry = emit(0)
	return tm
}
