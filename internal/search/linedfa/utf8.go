package linedfa

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// byteRange is an inclusive range of byte values.
type byteRange struct{ lo, hi byte }

// byteSeq is the UTF-8 encoding of a rectangle of runes: one byte range
// per encoded byte (1 to 4). Every combination of one byte from each
// range is the encoding of a rune of the rectangle, and no other rune.
type byteSeq struct {
	n int
	r [utf8.UTFMax]byteRange
}

// runeRange is an inclusive range of runes.
type runeRange struct{ lo, hi rune }

// Bounds of the encoded lengths and of the surrogates (which valid UTF-8
// never encodes; Go decodes their 3-byte forms as U+FFFD, one byte each).
const (
	max1    = 0x7F
	max2    = 0x7FF
	max3    = 0xFFFF
	surrLo  = 0xD800
	surrHi  = 0xDFFF
	maxRune = unicode.MaxRune
)

// scalarRanges turns a class (sorted or not, pairs lo, hi) into sorted,
// merged ranges of Unicode scalar values: surrogates and values above
// unicode.MaxRune are dropped, since no valid UTF-8 text encodes them.
func scalarRanges(pairs []rune) []runeRange {
	var rs []runeRange
	add := func(lo, hi rune) {
		lo, hi = max(lo, 0), min(hi, maxRune)
		if lo <= hi {
			rs = append(rs, runeRange{lo, hi})
		}
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		lo, hi := pairs[i], pairs[i+1]
		if lo <= surrHi && hi >= surrLo {
			add(lo, surrLo-1)
			add(surrHi+1, hi)
			continue
		}
		add(lo, hi)
	}
	slices.SortFunc(rs, func(a, b runeRange) int { return int(a.lo - b.lo) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// appendSeqs appends the byte sequences that encode exactly the runes of
// r (scalar values only, as scalarRanges gives them). The range is split
// until both ends encode to the same length and, for each continuation
// byte, the range either shares the higher bits or covers every value of
// the lower ones; then each encoded byte ranges independently (RE2's
// rune-range compiler, Rust's utf8-ranges).
func appendSeqs(out []byteSeq, r runeRange) []byteSeq {
	stack := []runeRange{r}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
	split:
		for {
			for _, m := range [...]rune{max1, max2, max3} {
				if r.lo <= m && m < r.hi {
					stack = append(stack, runeRange{m + 1, r.hi})
					r.hi = m
					continue split
				}
			}
			if r.hi <= max1 {
				out = append(out, byteSeq{n: 1, r: [utf8.UTFMax]byteRange{{byte(r.lo), byte(r.hi)}}})
				break
			}
			for i := uint(1); i < utf8.UTFMax; i++ {
				m := rune(1)<<(6*i) - 1
				if r.lo&^m == r.hi&^m {
					continue
				}
				if r.lo&m != 0 {
					stack = append(stack, runeRange{(r.lo | m) + 1, r.hi})
					r.hi = r.lo | m
					continue split
				}
				if r.hi&m != m {
					stack = append(stack, runeRange{r.hi &^ m, r.hi})
					r.hi = r.hi&^m - 1
					continue split
				}
			}
			var a, b [utf8.UTFMax]byte
			n := utf8.EncodeRune(a[:], r.lo)
			utf8.EncodeRune(b[:], r.hi)
			s := byteSeq{n: n}
			for i := range n {
				s.r[i] = byteRange{a[i], b[i]}
			}
			out = append(out, s)
			break
		}
	}
	return out
}

// foldOrbit returns the runes that match c under simple case folding
// (c itself included), as regexp/syntax compiles a case-folded literal.
func foldOrbit(c rune) []rune {
	out := []rune{c, c}
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		out = append(out, f, f)
	}
	return out
}
