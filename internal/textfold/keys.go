package textfold

import (
	"slices"
	"unicode/utf8"
)

// GramKey hashes a unigram (0, 0, c), a bigram (0, b, c) or a trigram
// (a, b, c) of runes into the 32-bit key stored in a part's gram section.
// Collisions only let a block through that cannot match; they never hide a
// match.
func GramKey(a, b, c rune) uint32 {
	x := uint64(a&0x1FFFFF)<<42 | uint64(b&0x1FFFFF)<<21 | uint64(c&0x1FFFFF)
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 32
	return uint32(x)
}

// ForKeys calls fn for every key of one folded line (AppendKeys). Its
// buffer holds what AppendKeys reserves (three keys a byte) for a line of
// up to 341 bytes, a long path, without an allocation.
func ForKeys(line []byte, fn func(uint32)) {
	var buf [1024]uint32
	for _, k := range AppendKeys(buf[:0], line) {
		fn(k)
	}
}

// AppendKeys appends the keys of one folded line: each rune, each pair of
// runes and each run of three ASCII runes, after katakana = hiragana
// folding. The encoder adds them to its gram set in a loop of its own,
// where add is inlined, instead of through a callback per key.
//
// Each rune's three keys are written and counted only when they exist
// (n += 1 or 0), with no branch on it: the branches on ASCII against
// Japanese text missed as often as the text changed script (issue 35).
func AppendKeys(keys []uint32, line []byte) []uint32 {
	n := len(keys)
	// At most three keys a rune, and a rune is at least a byte: the
	// writes of a rune's keys land below n+3.
	keys = slices.Grow(keys, 3*len(line))[:n+3*len(line)]
	var p2, p1 rune = -1, -1
	for i := 0; i < len(line); {
		var r rune
		if c := line[i]; c < utf8.RuneSelf {
			r = rune(c)
			i++
		} else if c >= 0xE3 && c <= 0xE9 && i+2 < len(line) && line[i+1]&0xC0 == 0x80 && line[i+2]&0xC0 == 0x80 {
			// Kana, CJK symbols and ideographs (U+3000–U+9FFF, three
			// bytes): decoded inline, not through utf8.DecodeRune.
			r = KanaRune(rune(c&0x0F)<<12 | rune(line[i+1]&0x3F)<<6 | rune(line[i+2]&0x3F))
			i += 3
		} else {
			var size int
			r, size = utf8.DecodeRune(line[i:])
			r = KanaRune(r)
			i += size
		}
		bi, tri := 0, 0
		if p1 >= 0 {
			bi = 1
			if p2 >= 0 && p2|p1|r < utf8.RuneSelf {
				tri = 1
			}
		}
		keys[n] = GramKey(0, 0, r)
		n++
		keys[n] = GramKey(0, p1, r)
		n += bi
		keys[n] = GramKey(p2, p1, r)
		n += tri
		p2, p1 = p1, r
	}
	return keys[:n]
}

// QueryKeys returns the keys that every block holding the folded string s
// on one line has: its bigrams and ASCII trigrams, or its runes when it has
// fewer than two. They are sorted and unique.
func QueryKeys(s string) []uint32 {
	var keys []uint32
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return nil
	}
	var p2, p1 rune = -1, -1
	for _, r := range s {
		r = KanaRune(r)
		if n == 1 {
			keys = append(keys, GramKey(0, 0, r))
		}
		if p1 >= 0 {
			keys = append(keys, GramKey(0, p1, r))
			if p2 >= 0 && p2 < utf8.RuneSelf && p1 < utf8.RuneSelf && r < utf8.RuneSelf {
				keys = append(keys, GramKey(p2, p1, r))
			}
		}
		p2, p1 = p1, r
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
