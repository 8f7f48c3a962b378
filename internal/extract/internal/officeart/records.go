package officeart

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
// against the bytes that hold it, and walks stop at MaxDepth.

// Record types.
const (
	RtDocument             = 0x03E8
	RtSlide                = 0x03EE
	RtSlideAtom            = 0x03EF
	RtNotes                = 0x03F0
	RtSlidePersistAtom     = 0x03F3
	RtSSSlideInfoAtom      = 0x03F9
	RtPPDrawing            = 0x040C
	RtRoundTripHFPh12      = 0x0420
	RtPlaceholderAtom      = 0x0BC3
	RtOutlineTextRefAtom   = 0x0F9E
	RtTextHeaderAtom       = 0x0F9F
	RtTextCharsAtom        = 0x0FA0
	RtTextBytesAtom        = 0x0FA8
	RtCString              = 0x0FBA
	RtHeadersFooters       = 0x0FD9
	RtHeadersFootersAtom   = 0x0FDA
	RtSlideListWithText    = 0x0FF0
	RtUserEditAtom         = 0x0FF5
	RtPersistDirectoryAtom = 0x1772
	RtComment10            = 0x2EE0
	RtExObjList            = 0x0409
	RtExEmbed              = 0x0FCC
	RtExOleObjAtom         = 0x0FC3
	RtExOleObjStg          = 0x1011
	RtExObjRefAtom         = 0x0BC1
	rtSlideNumberMCAtom    = 0x0FD8
	rtDateTimeMCAtom       = 0x0FF7
	rtGenericDateMCAtom    = 0x0FF8
	rtHeaderMCAtom         = 0x0FF9
	rtFooterMCAtom         = 0x0FFA
	rtRTFDateTimeMCAtom    = 0x1015

	rtOfficeArtDgg      = 0xF000
	RtOfficeArtDg       = 0xF002
	RtOfficeArtSpgr     = 0xF003
	RtOfficeArtSp       = 0xF004
	RtOfficeArtFSP      = 0xF00A
	RtOfficeArtFOPT     = 0xF00B
	RtOfficeArtTextbox  = 0xF00D
	RtOfficeArtChildAnc = 0xF00F
	RtOfficeArtClient   = 0xF010
	RtOfficeArtData     = 0xF011
	RtOfficeArtFOPT2    = 0xF121
	RtOfficeArtFOPT3    = 0xF122
)

// MaxDepth bounds how deep record walks go; real files nest about ten
// levels.
const MaxDepth = 64

// Rec is one record: its header fields and body.
type Rec struct {
	Inst uint16
	Typ  uint16
	Data []byte
}

// RecordAt parses the record at off in b.
func RecordAt(b []byte, off int64) (Rec, error) {
	if off < 0 || off+8 > int64(len(b)) {
		return Rec{}, fmt.Errorf("record at %d beyond the stream (%d bytes)", off, len(b))
	}
	le := binary.LittleEndian
	n := int64(le.Uint32(b[off+4:]))
	if n > int64(len(b))-off-8 {
		return Rec{}, fmt.Errorf("record %#04x at %d: %d bytes beyond the stream", le.Uint16(b[off+2:]), off, n)
	}
	return Rec{
		Inst: le.Uint16(b[off:]) >> 4,
		Typ:  le.Uint16(b[off+2:]),
		Data: b[off+8 : off+8+n],
	}, nil
}

// Children splits a container's body into records; a record that does not
// fit ends the list.
func (r Rec) Children() []Rec {
	var out []Rec
	for off := int64(0); off+8 <= int64(len(r.Data)); {
		c, err := RecordAt(r.Data, off)
		if err != nil {
			break
		}
		out = append(out, c)
		off += 8 + int64(len(c.Data))
	}
	return out
}

// Child returns the first child of type typ.
func (r Rec) Child(typ uint16) (Rec, bool) {
	for _, c := range r.Children() {
		if c.Typ == typ {
			return c, true
		}
	}
	return Rec{}, false
}

// Find calls fn for every record of type typ below r, depth first, to
// MaxDepth levels.
func (r Rec) Find(typ uint16, fn func(Rec)) {
	var walk func(Rec, int)
	walk = func(x Rec, depth int) {
		if depth > MaxDepth {
			return
		}
		for _, c := range x.Children() {
			if c.Typ == typ {
				fn(c)
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(r, 0)
}

// U32 returns the little-endian 32-bit value at off of the body, or 0.
func (r Rec) U32(off int) uint32 {
	if off < 0 || off+4 > len(r.Data) {
		return 0
	}
	return binary.LittleEndian.Uint32(r.Data[off:])
}

// U16 returns the little-endian 16-bit value at off of the body, or 0.
func (r Rec) U16(off int) uint16 {
	if off < 0 || off+2 > len(r.Data) {
		return 0
	}
	return binary.LittleEndian.Uint16(r.Data[off:])
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

// TextBuilder gathers one text of a text box or of the slide list: the
// text atoms' characters and the positions of field characters, which
// are removed (PowerPoint computes the field's value when it shows it).
type TextBuilder struct {
	units []rune
	meta  []int
	Any   bool
}

func (b *TextBuilder) Add(r Rec) {
	switch {
	case r.Typ == RtTextCharsAtom || r.Typ == RtTextBytesAtom:
		b.units = append(b.units, []rune(String(r))...)
		b.Any = true
	case isMetaChar(r.Typ):
		b.meta = append(b.meta, int(int32(r.U32(0))))
	}
}

func (b *TextBuilder) String() string {
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

// String decodes a TextCharsAtom or CString (UTF-16LE) or a
// TextBytesAtom (one byte per character, the low byte of UTF-16).
func String(r Rec) string {
	if r.Typ == RtTextBytesAtom {
		u := make([]rune, len(r.Data))
		for i, c := range r.Data {
			u[i] = rune(c)
		}
		return string(u)
	}
	u := make([]uint16, len(r.Data)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(r.Data[2*i:])
	}
	return string(utf16.Decode(u))
}
