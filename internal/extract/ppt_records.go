package extract

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
)

// PowerPoint 97–2003 records ([MS-PPT] 2.3.1) and the OfficeArt records
// of slide drawings ([MS-ODRAW] 2.2.1) share one 8-byte header,
// little-endian:
//
//	bits 0–3 recVer (0xF: a container), bits 4–15 recInstance  (2 bytes)
//	recType                                                     (2 bytes)
//	recLen: bytes of the body that follows                      (4 bytes)
//
// A container's body is a sequence of records. Every length is checked
// against the bytes that hold it, and walks stop at pptMaxDepth.

// Record types.
const (
	rtDocument             = 0x03E8
	rtSlide                = 0x03EE
	rtSlideAtom            = 0x03EF
	rtNotes                = 0x03F0
	rtSlidePersistAtom     = 0x03F3
	rtSSSlideInfoAtom      = 0x03F9
	rtPPDrawing            = 0x040C
	rtRoundTripHFPh12      = 0x0420
	rtPlaceholderAtom      = 0x0BC3
	rtOutlineTextRefAtom   = 0x0F9E
	rtTextHeaderAtom       = 0x0F9F
	rtTextCharsAtom        = 0x0FA0
	rtTextBytesAtom        = 0x0FA8
	rtCString              = 0x0FBA
	rtHeadersFooters       = 0x0FD9
	rtHeadersFootersAtom   = 0x0FDA
	rtSlideListWithText    = 0x0FF0
	rtUserEditAtom         = 0x0FF5
	rtPersistDirectoryAtom = 0x1772
	rtComment10            = 0x2EE0
	rtExObjList            = 0x0409
	rtExEmbed              = 0x0FCC
	rtExOleObjAtom         = 0x0FC3
	rtExOleObjStg          = 0x1011
	rtExObjRefAtom         = 0x0BC1
	rtSlideNumberMCAtom    = 0x0FD8
	rtDateTimeMCAtom       = 0x0FF7
	rtGenericDateMCAtom    = 0x0FF8
	rtHeaderMCAtom         = 0x0FF9
	rtFooterMCAtom         = 0x0FFA
	rtRTFDateTimeMCAtom    = 0x1015

	rtOfficeArtDgg      = 0xF000
	rtOfficeArtDg       = 0xF002
	rtOfficeArtSpgr     = 0xF003
	rtOfficeArtSp       = 0xF004
	rtOfficeArtFSP      = 0xF00A
	rtOfficeArtFOPT     = 0xF00B
	rtOfficeArtTextbox  = 0xF00D
	rtOfficeArtChildAnc = 0xF00F
	rtOfficeArtClient   = 0xF010
	rtOfficeArtData     = 0xF011
	rtOfficeArtFOPT2    = 0xF121
	rtOfficeArtFOPT3    = 0xF122
)

// pptMaxDepth bounds how deep record walks go; real files nest about ten
// levels.
const pptMaxDepth = 64

// pptRec is one record: its header fields and body.
type pptRec struct {
	inst uint16
	typ  uint16
	data []byte
}

// pptRecordAt parses the record at off in b.
func pptRecordAt(b []byte, off int64) (pptRec, error) {
	if off < 0 || off+8 > int64(len(b)) {
		return pptRec{}, fmt.Errorf("record at %d beyond the stream (%d bytes)", off, len(b))
	}
	le := binary.LittleEndian
	n := int64(le.Uint32(b[off+4:]))
	if n > int64(len(b))-off-8 {
		return pptRec{}, fmt.Errorf("record %#04x at %d: %d bytes beyond the stream", le.Uint16(b[off+2:]), off, n)
	}
	return pptRec{
		inst: le.Uint16(b[off:]) >> 4,
		typ:  le.Uint16(b[off+2:]),
		data: b[off+8 : off+8+n],
	}, nil
}

// children splits a container's body into records; a record that does not
// fit ends the list.
func (r pptRec) children() []pptRec {
	var out []pptRec
	for off := int64(0); off+8 <= int64(len(r.data)); {
		c, err := pptRecordAt(r.data, off)
		if err != nil {
			break
		}
		out = append(out, c)
		off += 8 + int64(len(c.data))
	}
	return out
}

// child returns the first child of type typ.
func (r pptRec) child(typ uint16) (pptRec, bool) {
	for _, c := range r.children() {
		if c.typ == typ {
			return c, true
		}
	}
	return pptRec{}, false
}

// find calls fn for every record of type typ below r, depth first, to
// pptMaxDepth levels.
func (r pptRec) find(typ uint16, fn func(pptRec)) {
	var walk func(pptRec, int)
	walk = func(x pptRec, depth int) {
		if depth > pptMaxDepth {
			return
		}
		for _, c := range x.children() {
			if c.typ == typ {
				fn(c)
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(r, 0)
}

// u32 returns the little-endian 32-bit value at off of the body, or 0.
func (r pptRec) u32(off int) uint32 {
	if off < 0 || off+4 > len(r.data) {
		return 0
	}
	return binary.LittleEndian.Uint32(r.data[off:])
}

// u16 returns the little-endian 16-bit value at off of the body, or 0.
func (r pptRec) u16(off int) uint16 {
	if off < 0 || off+2 > len(r.data) {
		return 0
	}
	return binary.LittleEndian.Uint16(r.data[off:])
}

// isMetaChar reports whether a record marks a field in the text
// (slide number, date, header, footer): its first 32 bits are the position
// of the placeholder character "*" in the text.
func isMetaChar(typ uint16) bool {
	switch typ {
	case rtSlideNumberMCAtom, rtDateTimeMCAtom, rtGenericDateMCAtom, rtHeaderMCAtom, rtFooterMCAtom, rtRTFDateTimeMCAtom:
		return true
	}
	return false
}

// pptTextBuilder gathers one text of a text box or of the slide list: the
// text atoms' characters and the positions of field characters, which
// are removed (PowerPoint computes the field's value when it shows it).
type pptTextBuilder struct {
	units []rune
	meta  []int
	any   bool
}

func (b *pptTextBuilder) add(r pptRec) {
	switch {
	case r.typ == rtTextCharsAtom || r.typ == rtTextBytesAtom:
		b.units = append(b.units, []rune(pptString(r))...)
		b.any = true
	case isMetaChar(r.typ):
		b.meta = append(b.meta, int(int32(r.u32(0))))
	}
}

func (b *pptTextBuilder) String() string {
	for _, m := range b.meta {
		if m >= 0 && m < len(b.units) && b.units[m] == '*' {
			b.units[m] = 0
		}
	}
	return strings.Map(func(r rune) rune {
		if r == 0 {
			return -1
		}
		return r
	}, string(b.units))
}

// pptString decodes a TextCharsAtom or CString (UTF-16LE) or a
// TextBytesAtom (one byte per character, the low byte of UTF-16).
func pptString(r pptRec) string {
	if r.typ == rtTextBytesAtom {
		u := make([]rune, len(r.data))
		for i, c := range r.data {
			u[i] = rune(c)
		}
		return string(u)
	}
	u := make([]uint16, len(r.data)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(r.data[2*i:])
	}
	return string(utf16.Decode(u))
}
