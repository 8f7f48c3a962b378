package fontprog

// Numeric glyph names (issue 33), read as pdftotext (poppler's GfxFont.cc,
// Gfx8BitFont) reads them, and only where it does so on evidence rather
// than as a guess. Some writers name a simple font's glyphs after numbers
// (`a65`, `g32`, `c117`, `G4C`, `3A`) instead of the Adobe Glyph List. A
// font's /Differences names are read as numbers when all of them are:
//
//   - every run of the array starts at a code of 5 or below (a font
//     numbered from its first glyph, not a few renamed glyphs), and
//   - every name is numeric: decimal digits after at most two letters
//     (`a65`, `cd65`, `65`), or, when the font's names are hexadecimal, two
//     hex digits after at most one letter (`G4C`, `4C`); trailing
//     characters that are neither letters nor digits are ignored.
//
// The names are hexadecimal when one of them that the Adobe Glyph List
// does not read looks it: a letter and two hex digits with a letter A–F
// among the two (`G4C`, `Cdd`), or two hex digits whose second is a letter
// A–F (`4C`). The number is then the name's character (`a65` is A, `G4C`
// is L). A name such as `cid123` (three letters) or `glyph7` is no number,
// and then no name of the font is read so.
//
// Where poppler guesses (a name it cannot read at all takes the character
// whose value is its code), nothing is read: the character is dropped.

// maxRunStart is the largest code a run of a numeric font's /Differences
// may start at (poppler's testForNumericNames).
const maxRunStart = 5

// NumericNames reports whether a simple font's /Differences names (code →
// name, the largest code a run starts at) are numeric, and whether they
// are hexadecimal.
func NumericNames(names map[int]string, runStart int) (numeric, hex bool) {
	if len(names) == 0 || runStart > maxRunStart {
		return false, false
	}
	for _, n := range names {
		if n != ".notdef" && GlyphNameText(n) == "" && looksHex(n) {
			hex = true
			break
		}
	}
	for _, n := range names {
		if _, ok := numericName(n, hex); !ok {
			return false, false
		}
	}
	return true, hex
}

// NumericNameText returns the text of a numeric name of a font whose
// names NumericNames found numeric; "" when the number is no character or
// no text.
func NumericNameText(name string, hex bool) string {
	v, ok := numericName(name, hex)
	if !ok || v > 0x10ffff || v >= 0xd800 && v < 0xe000 {
		return ""
	}
	if t := string(rune(v)); !NoText(t) {
		return t
	}
	return ""
}

// looksHex reports whether a name looks like a hexadecimal one.
func looksHex(n string) bool {
	hexLetter := func(c byte) bool { return c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	switch len(n) {
	case 3:
		return isAlpha(n[0]) && isHex(n[1]) && isHex(n[2]) && (hexLetter(n[1]) || hexLetter(n[2]))
	case 2:
		return isHex(n[0]) && isHex(n[1]) && hexLetter(n[1])
	}
	return false
}

// numericName parses a numeric name: its value and whether it is one.
func numericName(s string, hex bool) (uint32, bool) {
	if hex {
		n := 0
		for n < len(s) && isAlnum(s[n]) {
			n++
		}
		switch {
		case n == 3 && isAlpha(s[0]):
			s = s[1:]
		case n != 2:
			return 0, false
		}
	} else {
		for i := 0; i < 2 && len(s) > 0 && isAlpha(s[0]); i++ {
			s = s[1:]
		}
	}
	var v uint32
	digits := 0
	for ; digits < len(s); digits++ {
		d, ok := digitValue(s[digits], hex)
		if !ok {
			break
		}
		if v > 0x10ffff {
			return 0, false
		}
		if hex {
			v = v*16 + d
		} else {
			v = v*10 + d
		}
	}
	if digits == 0 {
		return 0, false
	}
	for _, c := range []byte(s[digits:]) {
		if isAlnum(c) {
			return 0, false
		}
	}
	return v, true
}

// digitValue returns the value of a decimal (or, with hex, hexadecimal)
// digit.
func digitValue(c byte, hex bool) (uint32, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case hex && c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	case hex && c >= 'A' && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isHex(c byte) bool   { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
