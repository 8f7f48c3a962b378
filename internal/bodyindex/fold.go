package bodyindex

import (
	"encoding/binary"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Folding is what makes the default search case- and width-insensitive
// (DESIGN.md "Search"): the body index stores a folded copy of every line
// and search folds the query the same way, so a plain byte search finds
// `ａｂｃ`, `ABC` and `abc` alike. One rune folds as follows:
//
//   - width: full-width ASCII becomes ASCII (`Ａ１＄` → `a1$`), the
//     ideographic space U+3000 a space, half-width katakana and
//     punctuation become full-width (`ｶﾀｶﾅ｡` → `カタカナ。`), as
//     golang.org/x/text/width.Fold does;
//   - case: simple case folding to the lower-case member of the rune's
//     orbit (unicode.ToLower(unicode.ToUpper(r)): `K` (Kelvin) → `k`,
//     `ς` → `σ`);
//   - a kana followed by a voiced or semi-voiced sound mark (the combining
//     U+3099/U+309A, or the half-width ﾞ ﾟ that width folding turns into
//     them) is composed into one rune where Unicode has one (`ｶﾞ` → `ガ`,
//     NFD `パ` → `パ`).
//
// Folding never maps a rune to LF, so lines stay lines. Its output may be
// shorter or longer than its input (`Ａ` is 3 bytes, `a` one); FoldMap
// gives the way back for highlighting.

// foldRune folds one rune (width, then case). Composition of sound marks
// is done by the callers, which see the next rune.
func foldRune(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	case r == 0x3000:
		return ' '
	case r > 0x3000 && r < 0xA640, r >= 0xAC00 && r < 0xD800:
		// CJK, kana, Yi, Hangul syllables: no case, no width variant.
		return r
	case r >= 0xFF00 && r <= 0xFFEF:
		if f := width.LookupRune(r).Folded(); f != 0 {
			r = f
		}
	case r == 0x20A9: // ₩ is classed half-width; its folded form is itself
		return r
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// compose returns the composition of a kana and a combining (semi-)voiced
// sound mark, or 0 when there is none.
func compose(base, mark rune) rune {
	voiced, semiVoiced := kanaMarks()
	if mark == 0x3099 {
		return voiced[base]
	}
	if mark == 0x309A {
		return semiVoiced[base]
	}
	return 0
}

// kanaMarks is made on first use (every command links this package).
var kanaMarks = sync.OnceValues(func() (map[rune]rune, map[rune]rune) {
	v := map[rune]rune{}
	s := map[rune]rune{}
	// Hiragana and katakana rows か…ほ: the voiced form follows the base
	// (か U+304B → が U+304C), and for は…ほ the semi-voiced one after it.
	for _, off := range []rune{0x3040, 0x30A0} {
		for _, b := range []rune{0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x15, 0x17, 0x19, 0x1B, 0x1D, 0x1F, 0x21, 0x24, 0x26, 0x28} {
			v[off+b] = off + b + 1
		}
		for _, b := range []rune{0x2F, 0x32, 0x35, 0x38, 0x3B} {
			v[off+b] = off + b + 1
			s[off+b] = off + b + 2
		}
	}
	v['う'] = 'ゔ'
	v['ウ'] = 'ヴ'
	v['ワ'] = 'ヷ'
	v['ヰ'] = 'ヸ'
	v['ヱ'] = 'ヹ'
	v['ヲ'] = 'ヺ'
	v['ゝ'] = 'ゞ'
	v['ヽ'] = 'ヾ'
	return v, s
})

// markAt reports whether s holds a sound mark (U+3099, U+309A, U+FF9E,
// U+FF9F) at byte j.
func markAt(s []byte, j int) bool {
	if j+2 >= len(s) {
		return false
	}
	switch {
	case s[j] == 0xE3 && s[j+1] == 0x82:
		return s[j+2] == 0x99 || s[j+2] == 0x9A
	case s[j] == 0xEF && s[j+1] == 0xBE:
		return s[j+2] == 0x9E || s[j+2] == 0x9F
	}
	return false
}

// isMark reports whether r is a combining sound mark after width folding.
func isMark(r rune) bool { return r == 0x3099 || r == 0x309A || r == 0xFF9E || r == 0xFF9F }

// markOf maps a half-width sound mark to its combining form.
func markOf(r rune) rune {
	switch r {
	case 0xFF9E:
		return 0x3099
	case 0xFF9F:
		return 0x309A
	}
	return r
}

// AppendFold appends the folded form of s to dst.
func AppendFold(dst, s []byte) []byte {
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

// Fold returns the folded form of s.
func Fold(s string) string { return string(AppendFold(nil, []byte(s))) }

// FoldMap folds s and returns, for every byte offset of the folded text
// (and its end), the byte offset in s where the rune it belongs to
// starts: a match [i, j) of the folded text is [starts[i], starts[j]) of s.
func FoldMap(s string) (folded string, starts []int) {
	var out []byte
	starts = make([]int, 0, len(s)+1)
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		f := foldRune(r)
		consumed := n
		if i+n < len(b) {
			if m, mn := utf8.DecodeRune(b[i+n:]); isMark(m) {
				if c := compose(f, markOf(m)); c != 0 {
					f = c
					consumed = n + mn
				}
			}
		}
		before := len(out)
		if r == utf8.RuneError && n == 1 {
			out = append(out, b[i])
		} else {
			out = utf8.AppendRune(out, f)
		}
		for k := before; k < len(out); k++ {
			starts = append(starts, i)
		}
		i += consumed
	}
	starts = append(starts, len(b))
	return string(out), starts
}

// AppendKana appends s (already folded) with every katakana turned into
// its hiragana (--kana: hiragana = katakana). Both are three bytes in
// UTF-8, so offsets into s stay valid.
func AppendKana(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0xE3 || i+2 >= len(s) {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if n == 3 {
			r = kanaRune(r)
			dst = utf8.AppendRune(dst, r)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// kanaRune maps a katakana to its hiragana; other runes are unchanged.
func kanaRune(r rune) rune {
	switch {
	case r >= 0x30A1 && r <= 0x30F6: // ァ…ヶ → ぁ…ゖ
		return r - 0x60
	case r == 0x30FD || r == 0x30FE: // ヽヾ → ゝゞ
		return r - 0x60
	}
	return r
}

// KanaString is AppendKana for a string.
func KanaString(s string) string { return string(AppendKana(nil, []byte(s))) }

// FoldRune folds one rune by width and case, without the composition of
// sound marks (which needs the next rune).
func FoldRune(r rune) rune { return foldRune(r) }

// KanaRune maps a katakana to its hiragana; other runes are unchanged.
func KanaRune(r rune) rune { return kanaRune(r) }

// CaseNeedle returns the folded text that the folded copy of any line
// holding s exactly (as --case matches) also holds. Fold(s) itself is not
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
		f := foldRune(r)
		voiced, semiVoiced := kanaMarks()
		if _, ok := voiced[f]; ok {
			s = s[:len(s)-n]
		} else if _, ok := semiVoiced[f]; ok {
			s = s[:len(s)-n]
		}
	}
	return Fold(s)
}

// appendPatches appends to patches the differences between a line s and
// its folded form (which starts at block offset base in the folded text):
// each run of runes whose folded bytes differ from their original bytes
// becomes one patch, encoded as uvarint(gap from the end of the previous
// patch), uvarint(folded length), uvarint(original length), original
// bytes. prevEnd carries the end of the previous patch (block offset).
func appendPatches(patches []byte, s []byte, base int, prevEnd *int) []byte {
	var fb [utf8.UTFMax]byte
	fpos := base // folded offset of the unit being looked at
	runStart, runFold := -1, 0
	origStart := 0
	flush := func(origEnd int) {
		if runStart < 0 {
			return
		}
		patches = binary.AppendUvarint(patches, uint64(runStart-*prevEnd))
		patches = binary.AppendUvarint(patches, uint64(runFold))
		patches = binary.AppendUvarint(patches, uint64(origEnd-origStart))
		patches = append(patches, s[origStart:origEnd]...)
		*prevEnd = runStart + runFold
		runStart = -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				if runStart < 0 {
					runStart, runFold, origStart = fpos, 0, i
				}
				runFold++
			} else {
				flush(i)
			}
			fpos++
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		f := foldRune(r)
		consumed := n
		if i+n < len(s) && s[i+n] >= utf8.RuneSelf {
			if m, mn := utf8.DecodeRune(s[i+n:]); isMark(m) {
				if c := compose(f, markOf(m)); c != 0 {
					f, consumed = c, n+mn
				}
			}
		}
		var folded []byte
		if r == utf8.RuneError && n == 1 {
			folded = s[i : i+1]
		} else {
			folded = fb[:utf8.EncodeRune(fb[:], f)]
		}
		if string(folded) == string(s[i:i+consumed]) {
			flush(i)
		} else {
			if runStart < 0 {
				runStart, runFold, origStart = fpos, 0, i
			}
			runFold += len(folded)
		}
		fpos += len(folded)
		i += consumed
	}
	flush(len(s))
	return patches
}

// applyPatches rebuilds original text from folded text and its patches
// (block offsets); it returns false when the patches do not fit.
func applyPatches(dst, folded, patches []byte) ([]byte, bool) {
	pos := 0
	for len(patches) > 0 {
		gap, n1 := binary.Uvarint(patches)
		if n1 <= 0 {
			return nil, false
		}
		flen, n2 := binary.Uvarint(patches[n1:])
		if n2 <= 0 {
			return nil, false
		}
		olen, n3 := binary.Uvarint(patches[n1+n2:])
		if n3 <= 0 {
			return nil, false
		}
		patches = patches[n1+n2+n3:]
		if gap > uint64(len(folded)-pos) || flen > uint64(len(folded)-pos)-gap || olen > uint64(len(patches)) {
			return nil, false
		}
		start := pos + int(gap)
		dst = append(dst, folded[pos:start]...)
		dst = append(dst, patches[:olen]...)
		patches = patches[olen:]
		pos = start + int(flen)
	}
	return append(dst, folded[pos:]...), true
}

// MapFolded turns byte offsets into the folded form of s into offsets
// into s, in place. offs must be ascending and fall on rune boundaries of
// the folded text (as matches of valid UTF-8 do); an offset inside a
// folded rune maps to where that rune's source starts. It is FoldMap
// without the allocations, for the few offsets of a hit.
func MapFolded(s []byte, offs []int) {
	k := 0
	fpos := 0
	var fb [utf8.UTFMax]byte
	for i := 0; i < len(s) && k < len(offs); {
		var fl, consumed int
		if c := s[i]; c < utf8.RuneSelf {
			fl, consumed = 1, 1
		} else {
			r, n := utf8.DecodeRune(s[i:])
			f := foldRune(r)
			consumed = n
			if i+n < len(s) && s[i+n] >= utf8.RuneSelf {
				if m, mn := utf8.DecodeRune(s[i+n:]); isMark(m) {
					if c := compose(f, markOf(m)); c != 0 {
						f, consumed = c, n+mn
					}
				}
			}
			if r == utf8.RuneError && n == 1 {
				fl = 1
			} else {
				fl = utf8.EncodeRune(fb[:], f)
			}
		}
		for k < len(offs) && offs[k] < fpos+fl {
			offs[k] = i
			k++
		}
		fpos += fl
		i += consumed
	}
	for ; k < len(offs); k++ {
		offs[k] = len(s)
	}
}
