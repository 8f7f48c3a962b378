package textfold

import (
	"slices"
	"unicode/utf8"
)

// KeyScanner is a Scanner that also makes the gram keys of the text it
// folds: AppendKeys's keys of the folded text, in AppendKeys's order,
// without decoding the folded text a second time (issue 35: the encoder
// folded each line and then decoded the folded line again for its keys).
// A run that folds to itself (SkipSame) yields the keys of the runes
// that sameRun decodes anyway; a unit that Scan folds yields the keys of
// its folded bytes (one rune, a run of spaces, or nothing).
//
// Folding keeps an invalid byte as it is, so two invalid pieces that a
// unit folding to nothing (a selector) separated meet in the folded text,
// where AppendKeys may decode them as one rune. After an invalid byte the
// keys are therefore AppendKeys's of the folded text (Keys). The text
// extractors give valid UTF-8; this only keeps the keys exact.
type KeyScanner struct {
	Scanner
	keys    []uint32 // three keys reserved per byte of the source
	first   int      // len(keys) at Reset
	n       int      // the end of the keys made so far
	p2, p1  rune     // the last two runes of the folded text after KanaRune; -1: none
	invalid bool     // a unit kept an invalid byte
}

// Reset makes the scanner walk src from its start and append the keys of
// its folded form to keys.
func (ks *KeyScanner) Reset(src []byte, keys []uint32) {
	ks.Scanner.Reset(src)
	n := len(keys)
	// A folded rune comes from at least one byte of the source (a unit
	// folds to at most one rune, a run of spaces to a space each, an
	// invalid byte to itself), and has at most three keys: the writes of
	// a rune's keys (putKeys) land below n + 3*len(src).
	ks.keys = slices.Grow(keys, 3*len(src))[:n+3*len(src)]
	ks.first, ks.n, ks.p2, ks.p1, ks.invalid = n, n, -1, -1, false
}

// Keys returns the keys slice given to Reset with the keys of the text
// walked so far appended; folded is that text's folded form (the bytes
// of the units walked), which it reads only after an invalid byte.
func (ks *KeyScanner) Keys(folded []byte) []uint32 {
	if ks.invalid {
		return AppendKeys(ks.keys[:ks.first], folded)
	}
	return ks.keys[:ks.n]
}

// Scan folds the next unit (Scanner.Scan) and makes its keys.
func (ks *KeyScanner) Scan() bool {
	if !ks.Scanner.Scan() {
		return false
	}
	b := ks.out
	for i := 0; i < len(b); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
			ks.invalid = ks.invalid || size == 1
			r = KanaRune(r)
		}
		i += size
		ks.n = putKeys(ks.keys, ks.n, ks.p2, ks.p1, r)
		ks.p2, ks.p1 = ks.p1, r
	}
	return true
}

// SkipSame is Scanner.SkipSame that also makes the keys of the run it
// skips. Its walk is sameRun's, with putKeys written out in it (the
// compiler does not inline putKeys, and a call per rune cost 3–4 % of
// BenchmarkEncode): FuzzKeyScanner holds it to Scanner's units and to
// AppendKeys's keys.
func (ks *KeyScanner) SkipSame() int {
	s, i := ks.src, ks.next
	prev, kata := ks.prev, ks.kata
	keys, n, p2, p1 := ks.keys, ks.n, ks.p2, ks.p1
	for i < len(s) {
		var r rune // the rune of the keys: after KanaRune
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || 'A' <= c && c <= 'Z' {
				break
			}
			prev, kata = rune(c), 0
			r = rune(c)
			i++
		} else {
			if c > 0xE9 || c < 0xE3 || i+2 >= len(s) {
				break
			}
			c1, c2 := s[i+1], s[i+2]
			if c1&0xC0 != 0x80 || c2&0xC0 != 0x80 ||
				i+3 < len(s) && (s[i+3] == 0xE3 && markAt(s, i+3) || s[i+3] >= 0xEF && markOrSelectorAt(s, i+3)) {
				break
			}
			r = rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F)
			o := uint(r - 0x3000)
			if plainBits[o/64]&(1<<(o%64)) == 0 {
				break
			}
			prev = r
			if katakanaBits[o/64]&(1<<(o%64)) != 0 {
				kata++
				r = KanaRune(r)
			} else {
				kata = 0
			}
			i += 3
		}
		k := keys[n : n+3 : n+3]
		k[0] = GramKey(0, 0, r)
		k[1] = GramKey(0, p1, r)
		k[2] = GramKey(p2, p1, r)
		bi, tri := int(^uint32(p1)>>31), 0
		if uint32(p2|p1|r) < utf8.RuneSelf {
			tri = 1
		}
		n += 1 + bi + tri
		p2, p1 = p1, r
	}
	skipped := i - ks.next
	ks.next, ks.prev, ks.kata = i, prev, kata
	ks.n, ks.p2, ks.p1 = n, p2, p1
	return skipped
}
