package xls

import (
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/codepage"
)

// Strings in BIFF8 ([MS-XLS] 2.5.293 XLUnicodeString, 2.5.294
// XLUnicodeRichExtendedString): a character count, a flag byte whose bit 0
// says 2-byte (UTF-16LE) or 1-byte (the low byte of UTF-16, i.e. Latin-1)
// characters, then for rich strings a run count and for extended strings
// the size of the phonetic block. When the characters continue in a
// CONTINUE record, that record starts with a new flag byte for the rest;
// runs and phonetic data are continued without one.
//
// BIFF5 strings are bytes in the workbook's code page (CODEPAGE record,
// e.g. 932 Shift_JIS; 1252 when absent).

// Cursor reads across the segments of a record and its CONTINUEs.
type Cursor struct {
	Segs [][]byte
	Si   int // current segment
	P    int // offset in it
	u16  []uint16
}

// avail is what is left in the current segment.
func (c *Cursor) avail() int {
	if c.Si >= len(c.Segs) {
		return 0
	}
	return len(c.Segs[c.Si]) - c.P
}

// Advance moves to the next non-empty segment when the current one is
// used up; false at the end of the data.
func (c *Cursor) Advance() bool {
	for c.Si < len(c.Segs) && c.P >= len(c.Segs[c.Si]) {
		c.Si++
		c.P = 0
	}
	return c.Si < len(c.Segs)
}

func (c *Cursor) Byte() (byte, bool) {
	if !c.Advance() {
		return 0, false
	}
	b := c.Segs[c.Si][c.P]
	c.P++
	return b, true
}

func (c *Cursor) Uint(n int) (uint32, bool) {
	var v uint32
	for i := 0; i < n; i++ {
		b, ok := c.Byte()
		if !ok {
			return 0, false
		}
		v |= uint32(b) << (8 * i)
	}
	return v, true
}

// skip drops n bytes, crossing segments without flag bytes.
func (c *Cursor) skip(n int) bool {
	for n > 0 {
		if !c.Advance() {
			return false
		}
		k := min(n, c.avail())
		c.P += k
		n -= k
	}
	return true
}

// Chars reads cch characters starting with the given width; when the
// characters run past the end of a segment, the next segment starts with
// a new flag byte.
func (c *Cursor) Chars(cch int, high bool) (string, bool) {
	u := c.u16[:0]
	for cch > 0 {
		if c.Si >= len(c.Segs) {
			c.u16 = u
			return "", false
		}
		seg := c.Segs[c.Si][c.P:]
		if len(seg) == 0 {
			c.Si++
			if !c.AdvanceFlag(&high) {
				c.u16 = u
				return "", false
			}
			continue
		}
		if high {
			n := min(cch, len(seg)/2)
			if n == 0 {
				c.u16 = u
				return "", false // an odd byte before a boundary
			}
			for i := 0; i < n; i++ {
				u = append(u, uint16(seg[2*i])|uint16(seg[2*i+1])<<8)
			}
			c.P += 2 * n
			cch -= n
			continue
		}
		n := min(cch, len(seg))
		for i := 0; i < n; i++ {
			u = append(u, uint16(seg[i]))
		}
		c.P += n
		cch -= n
	}
	c.u16 = u
	return UTF16(u), true
}

// AdvanceFlag reads the flag byte at the start of the current segment.
func (c *Cursor) AdvanceFlag(high *bool) bool {
	for c.Si < len(c.Segs) && len(c.Segs[c.Si]) == 0 {
		c.Si++
	}
	if c.Si >= len(c.Segs) {
		return false
	}
	*high = c.Segs[c.Si][0]&1 != 0
	c.P = 1
	return true
}

// UTF16 converts UTF-16 code units to a string, with a fast path for
// ASCII.
func UTF16(u []uint16) string {
	ascii := true
	for _, v := range u {
		if v >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(u))
		for i, v := range u {
			b[i] = byte(v)
		}
		return string(b)
	}
	return string(utf16.Decode(u))
}

// RichString reads an XLUnicodeRichExtendedString (the SST entries):
// characters, then runs and phonetic data skipped.
func (c *Cursor) RichString() (string, bool) {
	cch, ok := c.Uint(2)
	if !ok {
		return "", false
	}
	flags, ok := c.Byte()
	if !ok {
		return "", false
	}
	runs, ext := 0, 0
	if flags&0x08 != 0 {
		v, ok := c.Uint(2)
		if !ok {
			return "", false
		}
		runs = int(v)
	}
	if flags&0x04 != 0 {
		v, ok := c.Uint(4)
		if !ok {
			return "", false
		}
		ext = int(int32(v))
		if ext < 0 {
			return "", false
		}
	}
	s, ok := c.Chars(int(cch), flags&1 != 0)
	if !ok {
		return "", false
	}
	if !c.skip(4*runs) || !c.skip(ext) {
		// Runs or phonetic data cut by the end of the table: keep the text.
		return s, true
	}
	return s, true
}

// UnicodeString reads a BIFF8 XLUnicodeString (2-byte count) from b at
// i; it returns the string and the offset after it.
func UnicodeString(b []byte, i int) (string, int, bool) {
	if i+3 > len(b) {
		return "", i, false
	}
	cch := biff.Le16(b, i)
	return flaggedChars(b, i+2, cch)
}

// ShortUnicodeString reads a ShortXLUnicodeString (1-byte count).
func ShortUnicodeString(b []byte, i int) (string, int, bool) {
	if i+2 > len(b) {
		return "", i, false
	}
	return flaggedChars(b, i+1, int(b[i]))
}

// flaggedChars reads a flag byte and cch characters from b at i (one
// record, no CONTINUE); a string cut short is returned as far as it goes.
func flaggedChars(b []byte, i, cch int) (string, int, bool) {
	if i >= len(b) {
		return "", i, cch == 0
	}
	flags := b[i]
	i++
	if flags&0x08 != 0 { // rich (seen in LABEL written by some tools)
		i += 2
	}
	if flags&0x04 != 0 {
		i += 4
	}
	if i > len(b) {
		return "", len(b), false
	}
	if flags&1 != 0 {
		n := min(cch, (len(b)-i)/2)
		u := make([]uint16, n)
		for k := 0; k < n; k++ {
			u[k] = uint16(b[i+2*k]) | uint16(b[i+2*k+1])<<8
		}
		return UTF16(u), i + 2*n, n == cch
	}
	n := min(cch, len(b)-i)
	return codepage.Latin1(b[i : i+n]), i + n, n == cch
}

// CodePage decodes BIFF5 byte strings.
type CodePage struct {
	Enc encoding.Encoding // nil: Latin-1-like single bytes (1252 by default)
}

// Encoding returns the encoding of a CODEPAGE value ([MS-XLS] 2.4.52),
// from the shared table; 32768 is BIFF's number for Mac Roman (10000).
// UTF-16 (1200, BIFF8) and code pages without a decoder are read as
// Windows-1252.
func Encoding(cp int) encoding.Encoding {
	if cp == 32768 {
		cp = 10000
	}
	if enc, ok := codepage.Encoding(cp); ok {
		return enc
	}
	return charmap.Windows1252
}

// Decode converts code-page bytes to a string (codepage.Decode).
func (cp CodePage) Decode(b []byte) string { return codepage.Decode(cp.Enc, b) }

// biff5String decodes a BIFF5 string at off of a record: a count of
// countBytes bytes (1 or 2), then that many code-page bytes, cut at the
// record's end. The caller has checked that the count is there.
func (b *book) biff5String(data []byte, off, countBytes int) string {
	n := int(data[off])
	if countBytes == 2 {
		n = biff.Le16(data, off)
	}
	start := off + countBytes
	n = min(n, len(data)-start)
	return b.cp.Decode(data[start : start+n])
}
