package sheet

import (
	"strings"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// LS is the in-cell line break of Excel places (reference/extraction.md
// §3, U+2028).
const LS = "\u2028"

// Unescape decodes the _xHHHH_ escapes of spreadsheet strings
// (ST_Xstring: _x000D_ is CR, _x005F_ a literal underscore).
func Unescape(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+7 <= len(s) && s[i] == '_' && s[i+1] == 'x' && s[i+6] == '_' &&
			ooxml.IsHex(s[i+2]) && ooxml.IsHex(s[i+3]) && ooxml.IsHex(s[i+4]) && ooxml.IsHex(s[i+5]) {
			r := rune(ooxml.Unhex(s[i+2]))<<12 | rune(ooxml.Unhex(s[i+3]))<<8 | rune(ooxml.Unhex(s[i+4]))<<4 | rune(ooxml.Unhex(s[i+5]))
			b.WriteRune(r)
			i += 7
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// CellField is one cell in Excel's Unicode-text export after the
// reference's newline step (§5.3): a value holding CR, LF, TAB or `"` is
// wrapped in quotes with `"` doubled, and its line breaks (CRLF, CR or LF)
// become U+2028.
func CellField(v string) string {
	if !strings.ContainsAny(v, "\"\t\r\n") {
		return v
	}
	v = strings.ReplaceAll(v, `"`, `""`)
	if strings.ContainsAny(v, "\r\n") {
		v = strings.ReplaceAll(v, "\r\n", LS)
		v = strings.ReplaceAll(v, "\r", LS)
		v = strings.ReplaceAll(v, "\n", LS)
	}
	return `"` + v + `"`
}

// ObjectCellText is the reference's toObjectCellText (§3): the text
// trimmed, and when it holds `"`, TAB, CR or LF, its newlines turned into
// U+2028, `"` doubled and the whole wrapped in quotes.
func ObjectCellText(s string) string {
	return CellField(strings.TrimFunc(s, unicode.IsSpace))
}

// CellName returns the A1 address of a 1-based column and row.
func CellName(col, row int) string {
	return columnName(col) + Itoa(row)
}

// columnName returns the letters of a 1-based column (1 → A, 27 → AA).
func columnName(col int) string {
	var b [8]byte
	i := len(b)
	for col > 0 && i > 0 {
		col--
		i--
		b[i] = byte('A' + col%26)
		col /= 26
	}
	return string(b[i:])
}

func Itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// ParseRef parses an A1 reference (a leading "$" on either part is
// allowed) into a 1-based column and row; ok is false for anything else,
// including columns past XFD and rows past 1,048,576.
func ParseRef(ref string) (col, row int, ok bool) {
	i := 0
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	for i < len(ref) {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a'+1)
		if col > 16384 {
			return 0, 0, false
		}
		i++
	}
	if col == 0 {
		return 0, 0, false
	}
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	if i == len(ref) {
		return 0, 0, false
	}
	for ; i < len(ref); i++ {
		c := ref[i]
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		row = row*10 + int(c-'0')
		if row > 1048576 {
			return 0, 0, false
		}
	}
	if row == 0 {
		return 0, 0, false
	}
	return col, row, true
}

// parseCol parses column letters only ("AB" → 28); 0 when invalid.
func parseCol(s string) int {
	col := 0
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return 0
		}
		col = col*26 + int(c-'a'+1)
		if col > 16384 {
			return 0
		}
	}
	return col
}
