package textfold

import "unicode/utf8"

// Scanner walks a text unit by unit: a unit is the source bytes that fold
// together (one rune, or a kana and the sound mark composed with it) and
// the bytes they fold to. Every function that needs to know where folded
// bytes came from (MapOffsets, Map, the body index's patches) walks a
// Scanner, so they agree with Append by construction.
type Scanner struct {
	src   []byte
	start int // the current unit's first byte in src
	next  int // where the next unit starts
	out   []byte
	buf   [utf8.UTFMax]byte
}

// Reset makes the scanner walk src from its start.
func (sc *Scanner) Reset(src []byte) {
	sc.src, sc.start, sc.next, sc.out = src, 0, 0, nil
}

// Scan folds the next unit; it returns false at the end of the text.
func (sc *Scanner) Scan() bool {
	s, i := sc.src, sc.next
	if i >= len(s) {
		return false
	}
	sc.start = i
	c := s[i]
	if c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		sc.buf[0] = c
		sc.out, sc.next = sc.buf[:1], i+1
		return true
	}
	r, n := utf8.DecodeRune(s[i:])
	if r == utf8.RuneError && n == 1 {
		// Keep invalid bytes as they are: the folded copy of a line then
		// matches the same bytes of the original.
		sc.out, sc.next = s[i:i+1], i+1
		return true
	}
	f := foldRune(r)
	consumed := n
	if i+n < len(s) && s[i+n] >= utf8.RuneSelf {
		if m, mn := utf8.DecodeRune(s[i+n:]); isMark(m) {
			if c := compose(f, markOf(m)); c != 0 {
				f, consumed = c, n+mn
			}
		}
	}
	sc.out, sc.next = sc.buf[:utf8.EncodeRune(sc.buf[:], f)], i+consumed
	return true
}

// Start and End are the current unit's bytes in the source: [Start, End).
func (sc *Scanner) Start() int { return sc.start }

// End is where the current unit ends in the source.
func (sc *Scanner) End() int { return sc.next }

// Folded is what the current unit folds to; it is valid until the next
// Scan and may be empty.
func (sc *Scanner) Folded() []byte { return sc.out }

// Append appends the folded form of s to dst. Its fast paths (ASCII,
// ideographs, kana without a sound mark) fold as the Scanner does, a
// unit at a time (TestAppendFastPaths).
func Append(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		if c >= 0xE4 && c <= 0xE9 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			// U+4000–U+9FFF (CJK ideographs): never folded nor composed.
			dst = append(dst, c, s[i+1], s[i+2])
			i += 3
			continue
		}
		if c == 0xE3 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 &&
			(s[i+1] != 0x80 || s[i+2] != 0x80) && !markAt(s, i+3) {
			// U+3001–U+3FFF (kana, CJK punctuation) not followed by a
			// sound mark: never folded. Half of Japanese text.
			dst = append(dst, c, s[i+1], s[i+2])
			i += 3
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		f := foldRune(r)
		if i+n < len(s) && s[i+n] >= utf8.RuneSelf {
			if m, mn := utf8.DecodeRune(s[i+n:]); isMark(m) {
				if c := compose(f, markOf(m)); c != 0 {
					dst = utf8.AppendRune(dst, c)
					i += n + mn
					continue
				}
			}
		}
		if r == utf8.RuneError && n == 1 {
			// Keep invalid bytes as they are: the folded copy of a line
			// then matches the same bytes of the original.
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, f)
		}
		i += n
	}
	return dst
}

// String returns the folded form of s.
func String(s string) string { return string(Append(nil, []byte(s))) }

// Map folds s and returns, for every byte offset of the folded text (and
// its end), the byte offset in s where the unit it belongs to starts: a
// match [i, j) of the folded text is [starts[i], starts[j]) of s.
func Map(s string) (folded string, starts []int) {
	var out []byte
	starts = make([]int, 0, len(s)+1)
	var sc Scanner
	sc.Reset([]byte(s))
	for sc.Scan() {
		out = append(out, sc.Folded()...)
		for range sc.Folded() {
			starts = append(starts, sc.Start())
		}
	}
	starts = append(starts, len(s))
	return string(out), starts
}

// MapOffsets turns byte offsets into the folded form of s into offsets
// into s, in place. offs must be ascending and fall on rune boundaries of
// the folded text (as matches of valid UTF-8 do); an offset inside a
// folded unit maps to where that unit's source starts. It is Map without
// the allocations, for the few offsets of a hit.
func MapOffsets(s []byte, offs []int) {
	k, fpos := 0, 0
	var sc Scanner
	sc.Reset(s)
	for k < len(offs) && sc.Scan() {
		fl := len(sc.Folded())
		for k < len(offs) && offs[k] < fpos+fl {
			offs[k] = sc.Start()
			k++
		}
		fpos += fl
	}
	for ; k < len(offs); k++ {
		offs[k] = len(s)
	}
}

// CaseNeedle returns the folded text that the folded copy of any line
// holding s exactly (as --case matches) also holds. String(s) itself is not
// enough at the ends: a kana at the end of s may be composed with a sound
// mark that follows it in the line (s = `ｶ`, line `ｶﾞ` → `ガ`), and a
// sound mark at the start of s with the kana before it. Those runes are
// left out; the result may be empty.
func CaseNeedle(s string) string {
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		if !isMark(r) {
			break
		}
		s = s[n:]
	}
	if s != "" {
		r, n := utf8.DecodeLastRuneInString(s)
		if composable(foldRune(r)) {
			s = s[:len(s)-n]
		}
	}
	return String(s)
}
