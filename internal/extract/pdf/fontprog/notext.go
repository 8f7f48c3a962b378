package fontprog

import "unicode"

// IsNoText reports whether r is no text: a C0 or C1 control character
// other than CR and LF, DEL, U+FFFD, a surrogate or a noncharacter. The
// PDF reader drops such runes from a page's text (a glyph without a
// Unicode map comes out as its code), and a glyph named after one has no
// text.
func IsNoText(r rune) bool {
	switch {
	case r == '\r', r == '\n':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == unicode.ReplacementChar:
		return true
	case r >= 0xd800 && r < 0xe000:
		return true
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	}
	return false
}

// NoText reports whether a glyph's text is no text: it holds a rune that
// is none, or a line break.
func NoText(t string) bool {
	for _, r := range t {
		if IsNoText(r) || r == '\r' || r == '\n' {
			return true
		}
	}
	return false
}
