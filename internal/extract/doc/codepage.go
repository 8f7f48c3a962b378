package doc

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"

	"github.com/fumibako/fumibako/internal/extract/internal/codepage"
)

// Code pages of 8-bit Word 6/95 text. A codePage decodes bytes into one
// UTF-16 unit per byte, as the CP space counts them: the character of a
// double-byte sequence goes to its lead byte's CP and its trail byte's CP
// gets 0, which line building drops with the other control characters.
// The decoders and lead bytes come from the shared table
// (extract/internal/codepage); Windows-1252 is read by cp1252Unit, which
// keeps the bytes without a character as [MS-DOC] 2.4.1 says.

type codePage struct {
	id   int
	enc  encoding.Encoding // nil for Windows-1252 (cp1252Unit)
	lead func(b byte) bool // nil for a single-byte code page
	once sync.Once
	sbcs [256]uint16
	dbcs []uint16 // by lead<<8 | trail
}

// newCodePage is the code page id of the shared table.
func newCodePage(id int) *codePage {
	enc, _ := codepage.Encoding(id)
	return &codePage{id: id, enc: enc, lead: codepage.Lead(id)}
}

var (
	cp1252  = &codePage{id: 1252}
	cp932   = newCodePage(932)
	cp936   = newCodePage(936)
	cp949   = newCodePage(949)
	cp950   = newCodePage(950)
	cp1250  = newCodePage(1250)
	cp1251  = newCodePage(1251)
	cp1253  = newCodePage(1253)
	cp1254  = newCodePage(1254)
	cp1255  = newCodePage(1255)
	cp1256  = newCodePage(1256)
	cp1257  = newCodePage(1257)
	cp1258  = newCodePage(1258)
	cp874   = newCodePage(874)
	cpMacRo = newCodePage(10000)
)

// fibCodePage chooses the code page from the FIB's chse and lid.
func fibCodePage(chse, lid uint16) *codePage {
	switch chse {
	case 0:
	case 256:
		return cpMacRo
	default:
		return charsetCodePage(byte(chse))
	}
	if lid < 999 {
		return cp1252
	}
	switch lid & 0x3FF { // the primary language
	case 0x11:
		return cp932
	case 0x04:
		if lid == 0x0804 || lid == 0x1004 {
			return cp936
		}
		return cp950
	case 0x12:
		return cp949
	case 0x05, 0x0E, 0x15, 0x18, 0x1A, 0x1B, 0x24, 0x1C:
		return cp1250
	case 0x19, 0x22, 0x23, 0x02, 0x2F:
		return cp1251
	case 0x08:
		return cp1253
	case 0x1F:
		return cp1254
	case 0x0D:
		return cp1255
	case 0x01, 0x29, 0x20:
		return cp1256
	case 0x25, 0x26, 0x27:
		return cp1257
	case 0x1E:
		return cp874
	}
	return cp1252
}

// charsetCodePage maps a Windows character set (LOGFONT lfCharSet) to its
// code page through the shared table; one it does not list is read as
// Windows-1252.
func charsetCodePage(cs byte) *codePage {
	id, _ := codepage.ForCharset(int(cs))
	for _, p := range []*codePage{cp932, cp936, cp949, cp950, cp1250, cp1251, cp1253, cp1254, cp1255, cp1256, cp1257, cp1258, cp874, cpMacRo} {
		if p.id == id {
			return p
		}
	}
	return cp1252
}

// build fills the tables once: each byte, and each lead-trail pair of a
// double-byte code page, decoded by the encoding (U+FFFD where it has no
// character).
func (c *codePage) build() {
	c.once.Do(func() {
		if c.enc == nil {
			for i := range c.sbcs {
				c.sbcs[i] = cp1252Unit(byte(i))
			}
			return
		}
		d := c.enc.NewDecoder()
		one := func(b []byte) uint16 {
			out, err := d.Bytes(b)
			r, n := utf8.DecodeRune(out)
			if err != nil || n == 0 || n != len(out) || r > 0xFFFF {
				return 0xFFFD
			}
			return uint16(r)
		}
		for i := range c.sbcs {
			if i < 0x80 {
				c.sbcs[i] = uint16(i)
			} else {
				c.sbcs[i] = one([]byte{byte(i)})
			}
		}
		if c.lead != nil {
			c.dbcs = make([]uint16, 1<<16)
			for hi := 0x80; hi < 0x100; hi++ {
				if !c.lead(byte(hi)) {
					continue
				}
				for lo := 0x40; lo < 0x100; lo++ {
					c.dbcs[hi<<8|lo] = one([]byte{byte(hi), byte(lo)})
				}
			}
		}
	})
}

// decode appends one unit per byte of b to units.
func (c *codePage) decode(units []uint16, b []byte) []uint16 {
	c.build()
	for i := 0; i < len(b); i++ {
		x := b[i]
		if c.lead != nil && c.lead(x) && i+1 < len(b) && b[i+1] >= 0x40 {
			u := c.dbcs[int(x)<<8|int(b[i+1])]
			if u == 0 {
				u = 0xFFFD
			}
			units = append(units, u, 0)
			i++
			continue
		}
		units = append(units, c.sbcs[x])
	}
	return units
}

// decode16 appends one unit per 16-bit unit of b (fExtChar text): from
// 0x3000 up a double-byte code, below it the low byte's character, as
// LibreOffice reads such text.
func (c *codePage) decode16(units []uint16, b []byte) []uint16 {
	c.build()
	for i := 0; i+1 < len(b); i += 2 {
		u := uint16(b[i]) | uint16(b[i+1])<<8
		switch {
		case u < 0x3000:
			units = append(units, c.sbcs[byte(u)])
		case c.dbcs != nil && c.dbcs[u] != 0:
			units = append(units, c.dbcs[u])
		default:
			units = append(units, 0xFFFD)
		}
	}
	return units
}
