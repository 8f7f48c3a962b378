package textfold

import "unicode/utf8"

// Scanner walks a text unit by unit: a unit is the source bytes that fold
// together and the bytes they fold to. Most units are one rune; a kana
// and the sound mark composed with it are one, and so is a run of spaces.
// A unit may fold to nothing: spaces next to Japanese, a long-vowel mark
// that ends a katakana word, a variation selector. Every function that
// needs to know where folded bytes came from (MapSpans, Map, the body
// index's patches) walks a Scanner, and Append folds through the same unit
// function, so they all agree.
//
// The rules that look around a rune (see the package comment) see the
// folded runes before it (prev, kata) and the source after it.
type Scanner struct {
	src   []byte
	start int // the current unit's first byte in src
	next  int // where the next unit starts
	out   []byte
	prev  rune // the last rune folded to something (0 at the start)
	kata  int  // katakana runes folded in a row up to prev
	same  bool // the unit folds to its own bytes (Scan; unit sets it for ASCII)

	// vowelFrom..vowelEnd is the run of long-vowel marks katakanaAt last
	// walked, and vowelGoesOn its answer for any position in it: each ー
	// of a long run asks about the same text after the run, and walking
	// the run again for each made a line of n marks cost n² (a 16,384-rune
	// line of ー took 0.45 s to fold). vowelEnd < 0: none walked yet.
	vowelFrom, vowelEnd int
	vowelGoesOn         bool
}

// Reset makes the scanner walk src from its start.
func (sc *Scanner) Reset(src []byte) {
	sc.src, sc.start, sc.next, sc.out, sc.prev, sc.kata = src, 0, 0, sc.out[:0], 0, 0
	sc.vowelEnd = -1
}

// Scan folds the next unit; it returns false at the end of the text.
func (sc *Scanner) Scan() bool {
	if sc.next >= len(sc.src) {
		return false
	}
	sc.start = sc.next
	sc.out = sc.unit(sc.out[:0])
	if !sc.same {
		sc.same = string(sc.out) == string(sc.src[sc.start:sc.next])
	}
	return true
}

// Unchanged reports whether the current unit folds to its own bytes.
func (sc *Scanner) Unchanged() bool { return sc.same }

// Start is where the current unit starts in the source.
func (sc *Scanner) Start() int { return sc.start }

// End is where the current unit ends in the source.
func (sc *Scanner) End() int { return sc.next }

// Folded is what the current unit folds to; it is valid until the next
// Scan and may be empty.
func (sc *Scanner) Folded() []byte { return sc.out }

// emit records r as the last rune folded to something.
func (sc *Scanner) emit(r rune) {
	if isKatakana(r) {
		sc.kata++
	} else {
		sc.kata = 0
	}
	sc.prev = r
}

// unit folds the unit at sc.next, appends its folded bytes to dst and
// moves sc.next past it.
func (sc *Scanner) unit(dst []byte) []byte {
	s, i := sc.src, sc.next
	c := s[i]
	if c < utf8.RuneSelf && c != ' ' {
		sc.same = c < 'A' || c > 'Z'
		if !sc.same {
			c += 'a' - 'A'
		}
		sc.next, sc.prev, sc.kata = i+1, rune(c), 0
		return append(dst, c)
	}
	sc.same = false
	if n := spaceLen(s, i); n > 0 {
		return sc.spaces(dst, n)
	}
	if n := selectorLen(s, i); n > 0 {
		sc.next = i + n
		return dst
	}
	r, n := utf8.DecodeRune(s[i:])
	if r == utf8.RuneError && n == 1 {
		// Keep invalid bytes as they are: the folded copy of a line then
		// matches the same bytes of the original.
		sc.next = i + 1
		sc.emit(utf8.RuneError)
		return append(dst, c)
	}
	f := foldRune(r)
	end := i + n
	if j := end; j < len(s) && s[j] >= utf8.RuneSelf {
		for j < len(s) && selectorLen(s, j) > 0 {
			j += selectorLen(s, j) // a selector between kana and mark folds to nothing
		}
		if m, mn := utf8.DecodeRune(s[j:]); isMark(m) {
			if c := compose(f, markOf(m)); c != 0 {
				f, end = c, j+mn
			}
		}
	}
	sc.next = end
	switch f {
	case 0x30FC: // ー
		if sc.kata >= 3 && !sc.katakanaAt(end) {
			// The long vowel that ends a katakana word of three or more
			// characters before it is optional: サーバー = サーバ.
			sc.emit(f)
			return dst
		}
	case 0x30B1, 0x30AB: // ケ, カ
		if kanjiBefore(sc.prev) && sc.hanAt(end) {
			f = 0x30F6 // ヶ: 霞ケ関 = 霞ヶ関, 3カ月 = 3ヶ月
		}
	}
	sc.emit(f)
	return utf8.AppendRune(dst, f)
}

// spaces folds the run of spaces at sc.next, whose first rune is n bytes
// long: to nothing when the rune before or after the run is Japanese
// (見 積 書 = 見積書, 形式 N01 = 形式N01), else each to an ASCII space.
func (sc *Scanner) spaces(dst []byte, n int) []byte {
	s := sc.src
	j, count := sc.next+n, 1
	for j < len(s) {
		m := spaceLen(s, j)
		if m == 0 {
			break
		}
		j += m
		count++
	}
	sc.next = j
	if r, mark := sc.peek(j); !mark && (isCJK(sc.prev) || isCJK(r)) {
		// Before a sound mark spaces stay: the mark must not meet a kana
		// it was not written after.
		return dst
	}
	for range count {
		dst = append(dst, ' ')
	}
	sc.emit(' ')
	return dst
}

// peek returns the folded rune at s[j] (without the rules around it),
// past spaces and selectors, which fold to nothing between Japanese; -1 at
// the end. mark reports a sound mark there.
func (sc *Scanner) peek(j int) (r rune, mark bool) {
	s := sc.src
	for j < len(s) {
		n := spaceLen(s, j)
		if n == 0 {
			n = selectorLen(s, j)
		}
		if n == 0 {
			break
		}
		j += n
	}
	if j >= len(s) {
		return -1, false
	}
	r, _ = utf8.DecodeRune(s[j:])
	if isMark(r) {
		return r, true
	}
	return foldRune(r), false
}

// katakanaAt reports whether the text at j goes on with katakana (or a
// sound mark) after any long-vowel marks: the last of several ー that end
// a word is as optional as one.
func (sc *Scanner) katakanaAt(j int) bool {
	if sc.vowelFrom <= j && j <= sc.vowelEnd {
		return sc.vowelGoesOn
	}
	s := sc.src
	from := j
	for j < len(s) {
		r, n := utf8.DecodeRune(s[j:])
		if r != 'ー' && r != 'ｰ' {
			break
		}
		j += n
	}
	r, mark := sc.peek(j)
	sc.vowelFrom, sc.vowelEnd, sc.vowelGoesOn = from, j, mark || isKatakana(r)
	return sc.vowelGoesOn
}

// hanAt reports whether the text at j goes on with a kanji.
func (sc *Scanner) hanAt(j int) bool {
	r, _ := sc.peek(j)
	return isHan(r)
}

// Append appends the folded form of s to dst: a Scanner's units one after
// another, where the runs of bytes that fold to themselves (SkipSame) are
// copied whole, since folding is on the path of every line indexed and
// every query (TestAppendFastPaths and FuzzAppend compare it with the
// units alone).
func Append(dst, s []byte) []byte {
	var sc Scanner
	sc.Reset(s)
	for sc.next < len(s) {
		if n := sc.SkipSame(); n > 0 {
			dst = append(dst, s[sc.next-n:sc.next]...)
			continue
		}
		dst = sc.unit(dst)
	}
	return dst
}

// SkipSame moves the scanner over the run of units from where it stands
// that fold to their own bytes whatever follows (sameRun) and returns its
// length in bytes (of the source and of the folded text alike). The
// current unit is then undefined until the next Scan.
func (sc *Scanner) SkipSame() int {
	j, prev, kata := sameRun(sc.src, sc.next, sc.prev, sc.kata)
	n := j - sc.next
	sc.next, sc.prev, sc.kata = j, prev, kata
	return n
}

// sameRun returns the end of the run of s from i that folds to its own
// bytes whatever is around it, and the scanner state after it: ASCII other
// than capitals and spaces, and three-byte runes of U+3000–U+9FFF that
// plainRune passes (a kanji without a variant, a kana or CJK symbol that
// no rule looks at) and that no sound mark or selector follows. Half of
// Japanese text; the Scanner's unit folds the rest.
// KeyScanner.SkipSame is this loop with the runes' gram keys made in it:
// a change to one is a change to both (FuzzKeyScanner compares their
// units).
func sameRun(s []byte, i int, prev rune, kata int) (int, rune, int) {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || 'A' <= c && c <= 'Z' {
				break
			}
			prev, kata = rune(c), 0
			i++
			continue
		}
		if c > 0xE9 || c < 0xE3 || i+2 >= len(s) {
			break
		}
		c1, c2 := s[i+1], s[i+2]
		// A kana follows a kana more often than not: its mark test is
		// inlined (markAt), the selectors' call is only for 0xEF and up.
		if c1&0xC0 != 0x80 || c2&0xC0 != 0x80 ||
			i+3 < len(s) && (s[i+3] == 0xE3 && markAt(s, i+3) || s[i+3] >= 0xEF && markOrSelectorAt(s, i+3)) {
			break
		}
		r := rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F)
		o := uint(r - 0x3000)
		if plainBits[o/64]&(1<<(o%64)) == 0 {
			break
		}
		prev = r
		if katakanaBits[o/64]&(1<<(o%64)) != 0 {
			kata++
		} else {
			kata = 0
		}
		i += 3
	}
	return i, prev, kata
}

// markOrSelectorAt reports whether s holds a sound mark or a selector at j.
func markOrSelectorAt(s []byte, j int) bool { return markAt(s, j) || selectorLen(s, j) > 0 }

// plainBits and katakanaBits hold plainRune for U+3000–U+9FFF, made at
// start (28,672 runes, a few µs).
var plainBits, katakanaBits = func() (p, k [(0xA000 - 0x3000) / 64]uint64) {
	for r := rune(0x3000); r < 0xA000; r++ {
		o := r - 0x3000
		if plain, kata := plainRune(r); plain {
			p[o/64] |= 1 << (o % 64)
			if kata {
				k[o/64] |= 1 << (o % 64)
			}
		}
	}
	return p, k
}()

// plainRune reports whether r (U+3000–U+9FFF), not followed by a sound
// mark or a selector, folds to itself whatever is around it, and whether
// it is katakana.
func plainRune(r rune) (plain, kata bool) {
	switch {
	case r >= 0x4E00:
		return variant(r) == r, false
	case r >= 0x3041 && r <= 0x3096, r >= 0x309D && r <= 0x309F:
		return true, false // hiragana
	case r >= 0x30A1 && r <= 0x30FA:
		switch r {
		case 0x30AB, 0x30B1, 0x30F5, 0x30F6: // カ ケ ヵ ヶ
			return false, false
		}
		return true, true
	case r > 0x3000 && r < 0x3041 && (r < 0x3005 || r > 0x3007):
		return variant(r) == r, false // CJK symbols and punctuation
	}
	return false, false
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
