package textfold

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// foldRune folds one rune: width, case, old and variant kanji, ヵ → ヶ.
// The rules that need the runes around it (sound marks, spaces, long
// vowels, ケ between kanji) are the Scanner's.
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
		// CJK, kana, Yi, Hangul syllables: no case, no width variant;
		// old and variant kanji fold to their common form, ヵ to ヶ.
		if r == 0x30F5 {
			return 0x30F6
		}
		return variant(r)
	case r >= 0xF900 && r <= 0xFAFF, r >= 0x20000:
		// CJK compatibility and supplementary ideographs.
		return variant(r)
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

// Rune folds one rune by width, case and kanji variant, without the rules
// that need the runes around it (sound marks, spaces, long vowels, ケ):
// what a character class of a regular expression is mapped by.
func Rune(r rune) rune { return foldRune(r) }

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

// composable reports whether a sound mark after the folded rune f may be
// composed with it.
func composable(f rune) bool {
	voiced, semiVoiced := kanaMarks()
	if _, ok := voiced[f]; ok {
		return true
	}
	_, ok := semiVoiced[f]
	return ok
}

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

// isMark reports whether r is a combining sound mark before or after width
// folding.
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
