package textfold

import "unicode/utf8"

// The rules that look at the runes around one (spaces, long vowels, ケ)
// classify folded runes.

// isHan reports whether r is an ideograph or an ideographic iteration or
// closing mark (々 〆 〇), which stand where a kanji does.
func isHan(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF:
		return true
	case r >= 0x3005 && r <= 0x3007:
		return true
	case r >= 0xF900 && r <= 0xFAFF, r >= 0x20000 && r <= 0x3FFFF:
		return true
	}
	return false
}

// kanjiBefore reports whether r, before a ケ, カ, が or か, makes it a
// counter or the particle of a place name: a kanji or a digit (霞ケ関,
// 一ヶ月, 3カ月).
func kanjiBefore(r rune) bool { return isHan(r) || '0' <= r && r <= '9' }

// isKatakana reports whether r is a katakana letter, the long-vowel mark
// or a katakana iteration mark (U+30A1–U+30FA, U+30FC–U+30FE, U+31F0–
// U+31FF); the middle dot ・ is not.
func isKatakana(r rune) bool {
	return r >= 0x30A1 && r <= 0x30FA || r >= 0x30FC && r <= 0x30FE || r >= 0x31F0 && r <= 0x31FF
}

// isCJK reports whether r is a character of Japanese (or Chinese) writing
// next to which spaces are not significant: ideographs, kana, CJK symbols
// and punctuation (U+3001–U+303F), enclosed and squared CJK (U+3200–
// U+33FF) and the CJK compatibility forms (U+FE30–U+FE4F). Hangul is not:
// Korean separates words with spaces.
func isCJK(r rune) bool {
	switch {
	case isHan(r):
		return true
	case r >= 0x3001 && r <= 0x30FF, r >= 0x31F0 && r <= 0x31FF:
		return true
	case r >= 0x3200 && r <= 0x33FF, r >= 0xFE30 && r <= 0xFE4F:
		return true
	}
	return false
}

// spaceLen returns the length of the space rune at s[i:], or 0: ASCII
// space, no-break space, the ideographic space U+3000 and the other
// Unicode spaces (U+1680, U+2000–U+200A, U+202F, U+205F). Tabs are not:
// they separate the cells of a row in the lines of a sheet.
func spaceLen(s []byte, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		if c == ' ' {
			return 1
		}
		return 0
	}
	switch c {
	case 0xC2: // U+00A0
		if i+1 < len(s) && s[i+1] == 0xA0 {
			return 2
		}
	case 0xE1: // U+1680
		if i+2 < len(s) && s[i+1] == 0x9A && s[i+2] == 0x80 {
			return 3
		}
	case 0xE2: // U+2000–U+200A, U+202F, U+205F
		if i+2 < len(s) && (s[i+1] == 0x80 && (s[i+2] <= 0x8A || s[i+2] == 0xAF) || s[i+1] == 0x81 && s[i+2] == 0x9F) {
			return 3
		}
	case 0xE3: // U+3000
		if i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0x80 {
			return 3
		}
	}
	return 0
}

// selectorLen returns the length of the variation selector at s[i:], or 0:
// U+FE00–U+FE0F and the ideographic variation selectors U+E0100–U+E01EF
// (IVS). They choose a glyph, never a different word, and fold to nothing.
func selectorLen(s []byte, i int) int {
	switch s[i] {
	case 0xEF: // U+FE00–U+FE0F: EF B8 80–8F
		if i+2 < len(s) && s[i+1] == 0xB8 && s[i+2] >= 0x80 && s[i+2] <= 0x8F {
			return 3
		}
	case 0xF3: // U+E0100–U+E01EF: F3 A0 84 80 – F3 A0 87 AF
		if i+3 < len(s) && s[i+1] == 0xA0 && s[i+2] >= 0x84 && s[i+2] <= 0x87 && s[i+3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 0
}
