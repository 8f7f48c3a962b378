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
// folding (putKeys), invalid bytes one U+FFFD each. The encoder makes the
// same keys as it folds a line (KeyScanner); this is the rule it is held
// to, and the keys of the few short texts folded apart (the summary's
// paths).
func AppendKeys(keys []uint32, line []byte) []uint32 {
	n := len(keys)
	// At most three keys a rune, and a rune is at least a byte: the
	// writes of a rune's keys land below n + 3*len(line).
	keys = slices.Grow(keys, 3*len(line))[:n+3*len(line)]
	var p2, p1 rune = -1, -1
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		r = KanaRune(r)
		i += size
		n = putKeys(keys, n, p2, p1, r)
		p2, p1 = p1, r
	}
	return keys[:n]
}

// putKeys writes the keys of rune r after the runes p2, p1 (-1 where the
// text has none) at keys[n:] and returns n plus how many exist: the
// unigram always, the bigram after a rune, the trigram after two when all
// three are ASCII. All three are written, and counted only when they
// exist, without a branch on it: the branches on ASCII against Japanese
// text missed as often as the text changed script (issue 35). A trigram
// exists only where a bigram does, so the bigram is at n+1 and the
// trigram at n+2. keys must hold n+3.
func putKeys(keys []uint32, n int, p2, p1, r rune) int {
	k := keys[n : n+3 : n+3]
	k[0] = GramKey(0, 0, r)
	k[1] = GramKey(0, p1, r)
	k[2] = GramKey(p2, p1, r)
	// p1 >= 0 for a bigram; p2, p1 and r all in 0–127 for a trigram,
	// which -1 (all bits set) is not as unsigned.
	bi, tri := int(^uint32(p1)>>31), 0
	if uint32(p2|p1|r) < utf8.RuneSelf {
		tri = 1
	}
	return n + 1 + bi + tri
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
