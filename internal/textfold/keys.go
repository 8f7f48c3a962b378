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

// ForKeys calls fn for every key of one folded line (AppendKeys).
func ForKeys(line []byte, fn func(uint32)) {
	var buf [256]uint32
	for _, k := range AppendKeys(buf[:0], line) {
		fn(k)
	}
}

// AppendKeys appends the keys of one folded line: each rune, each pair of
// runes and each run of three ASCII runes, after katakana = hiragana
// folding. The encoder adds them to its gram set in a loop of its own,
// where add is inlined, instead of through a callback per key.
func AppendKeys(keys []uint32, line []byte) []uint32 {
	var p2, p1 rune = -1, -1
	for i := 0; i < len(line); {
		var r rune
		if c := line[i]; c < utf8.RuneSelf {
			r = rune(c)
			i++
		} else if c >= 0xE4 && c <= 0xE9 && i+2 < len(line) && line[i+1]&0xC0 == 0x80 && line[i+2]&0xC0 == 0x80 {
			// CJK ideographs: decode inline, no kana to fold.
			r = rune(c&0x0F)<<12 | rune(line[i+1]&0x3F)<<6 | rune(line[i+2]&0x3F)
			i += 3
		} else {
			var n int
			r, n = utf8.DecodeRune(line[i:])
			r = KanaRune(r)
			i += n
		}
		keys = append(keys, GramKey(0, 0, r))
		if p1 >= 0 {
			keys = append(keys, GramKey(0, p1, r))
			if p2 >= 0 && p2 < utf8.RuneSelf && p1 < utf8.RuneSelf && r < utf8.RuneSelf {
				keys = append(keys, GramKey(p2, p1, r))
			}
		}
		p2, p1 = p1, r
	}
	return keys
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
