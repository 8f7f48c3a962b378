// Package fontprog reads what the PDF reader needs of a font's embedded
// program (TrueType/OpenType cmaps and glyph names, Type 1 and bare CFF
// built-in encodings) and turns glyph names into text (the Adobe Glyph
// List): the text of codes the engine could not map (issue 33). It imports
// nothing of fumibako; only package extract/pdf imports it.
package fontprog

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"golang.org/x/image/font/sfnt"
)

// Text of character codes from an embedded font program (issue 33), for
// the characters the engine could not map (a font without a ToUnicode map
// whose encoding gives no names the engine knows). The engine hands over
// the program as embedded (FontFile, FontFile2, FontFile3 after the
// stream's filters), so its format is told by its first bytes:
//
//   - TrueType / OpenType (sfnt: 00 01 00 00, `true`, `OTTO`; PDF 32000
//     9.6.6.4): a code reaches its glyph through the (3,0) cmap at code,
//     F000+code, F100+code or F200+code, else the (1,0) cmap at code, else
//     (a CID font's code, or a font without those cmaps) the glyph whose
//     index is the code. The glyph's text is its name in the 'post' table
//     (or the CFF charset of an `OTTO` font) read as glyphname.go says,
//     else the character a Unicode cmap ((3,1), (3,10), (0,*)) maps to it.
//   - Type 1 (`%!` text, or PFB segments 80 01 <length, 4 bytes LE>): the
//     font's built-in encoding, `dup <code> /<name> put` entries of its
//     clear-text part before `eexec`, names read as glyphname.go says.
//   - Bare CFF (FontFile3 /Type1C: major version 1, header size ≥ 4): its
//     built-in encoding and charset (cff.go), names the same.
//
// Anything else (a CID-keyed CFF program, Type 3 glyph procedures, a
// broken program) gives no text, and the engine's code stays dropped. Every
// offset and count is checked against the program's length: the program
// comes from the file.
type Program struct {
	sfnt     *sfnt.Font
	buf      sfnt.Buffer
	numGlyph int
	sym      cmapTable // (3,0)
	mac      cmapTable // (1,0)
	uni      map[uint16]rune
	builtin  map[uint32]string // code → glyph name of a Type 1 or CFF built-in encoding
	memo     map[uint32]string
}

// maxFontProgram bounds the program parsed (a CJK font is some 20 MB; a
// subset far less).
const maxFontProgram = 32 << 20

// Parse reads what it can of a font program; nil when nothing.
func Parse(data []byte) *Program {
	if len(data) < 4 || len(data) > maxFontProgram {
		return nil
	}
	switch {
	case bytes.HasPrefix(data, []byte{0, 1, 0, 0}), bytes.HasPrefix(data, []byte("true")), bytes.HasPrefix(data, []byte("OTTO")):
		return parseSFNT(data)
	case bytes.HasPrefix(data, []byte("%!")), data[0] == 0x80 && data[1] == 1:
		return builtinProgram(type1Encoding(type1ClearText(data)))
	case data[0] == 1 && data[2] >= 4:
		return builtinProgram(cffEncoding(data))
	}
	return nil
}

func builtinProgram(enc map[uint32]string) *Program {
	if len(enc) == 0 {
		return nil
	}
	return &Program{builtin: enc, memo: map[uint32]string{}}
}

// Builtin reports whether the program is a Type 1 or CFF program with a
// built-in encoding (it has no glyph indexes of its own to read).
func (p *Program) Builtin() bool { return p.builtin != nil }

// Unicode returns the character a Unicode cmap of the program maps to a
// glyph.
func (p *Program) Unicode(gid int) (rune, bool) {
	if gid < 0 || gid > 0xffff {
		return 0, false
	}
	r, ok := p.uni[uint16(gid)]
	return r, ok
}

// Text returns the text of a character code, "" when unknown or no text.
func (p *Program) Text(code uint32) string {
	if t, ok := p.memo[code]; ok {
		return t
	}
	var t string
	if p.builtin != nil {
		t = GlyphNameText(p.builtin[code])
	} else {
		t = p.sfntText(code)
	}
	if NoText(t) {
		t = "" // a glyph named after a control character
	}
	if len(p.memo) < 1<<16 {
		p.memo[code] = t
	}
	return t
}

func (p *Program) sfntText(code uint32) string {
	gid := p.CmapGlyph(code)
	if gid < 0 {
		gid = int(code)
	}
	return p.GlyphText(gid)
}

// CmapGlyph returns the glyph a simple font's code reaches through the
// program's (3,0) or (1,0) cmap, -1 when neither has it.
func (p *Program) CmapGlyph(code uint32) int {
	if code >= 0x100 {
		return -1
	}
	if p.sym.ok() {
		for _, base := range []uint32{0, 0xf000, 0xf100, 0xf200} {
			if g := p.sym.lookup(base + code); g > 0 {
				return g
			}
		}
	}
	if p.mac.ok() {
		if g := p.mac.lookup(code); g > 0 {
			return g
		}
	}
	return -1
}

// GlyphText returns the text of a glyph of an sfnt program: its name,
// else what a Unicode cmap maps to it ("" when neither tells). A CID
// TrueType font with an Identity /CIDToGIDMap reaches its glyphs so.
func (p *Program) GlyphText(gid int) string {
	if p.builtin != nil || gid <= 0 || gid >= p.numGlyph || gid > 0xffff {
		return ""
	}
	if p.sfnt != nil {
		if name, err := p.sfnt.GlyphName(&p.buf, sfnt.GlyphIndex(gid)); err == nil {
			if t := GlyphNameText(name); t != "" {
				return t
			}
		}
	}
	if r, ok := p.uni[uint16(gid)]; ok {
		return string(r)
	}
	return ""
}

// parseSFNT reads a TrueType or OpenType program's cmaps itself (the PDF
// lookups need the (3,0) and (1,0) subtables by their raw codes, which
// x/image/font/sfnt does not expose) and leaves glyph names to sfnt.
func parseSFNT(data []byte) *Program {
	p := &Program{memo: map[uint32]string{}}
	if f, err := sfnt.Parse(data); err == nil {
		p.sfnt = f
		p.numGlyph = f.NumGlyphs()
	}
	tables := sfntTables(data)
	if maxp, ok := tables["maxp"]; ok && len(maxp) >= 6 && p.numGlyph == 0 {
		p.numGlyph = int(binary.BigEndian.Uint16(maxp[4:]))
	}
	cmap := tables["cmap"]
	if len(cmap) >= 4 {
		n := int(binary.BigEndian.Uint16(cmap[2:]))
		for i := 0; i < n && 4+8*i+8 <= len(cmap); i++ {
			rec := cmap[4+8*i:]
			pid, eid := binary.BigEndian.Uint16(rec), binary.BigEndian.Uint16(rec[2:])
			off := binary.BigEndian.Uint32(rec[4:])
			if off >= uint32(len(cmap)) {
				continue
			}
			t := parseCmapTable(cmap[off:])
			if !t.ok() {
				continue
			}
			switch {
			case pid == 3 && eid == 0 && !p.sym.ok():
				p.sym = t
			case pid == 1 && eid == 0 && !p.mac.ok():
				p.mac = t
			case pid == 0 || pid == 3 && (eid == 1 || eid == 10):
				if p.uni == nil {
					p.uni = map[uint16]rune{}
				}
				t.each(func(code uint32, gid int) {
					if _, seen := p.uni[uint16(gid)]; !seen && gid > 0 && gid <= 0xffff && code <= 0x10ffff && !(code >= 0xd800 && code < 0xe000) {
						p.uni[uint16(gid)] = rune(code)
					}
				})
			}
		}
	}
	if p.numGlyph == 0 || p.sfnt == nil && !p.sym.ok() && !p.mac.ok() && p.uni == nil {
		return nil
	}
	return p
}

// sfntTables returns the tables of an sfnt's directory (tag → bytes),
// leaving out those past the end of the data.
func sfntTables(data []byte) map[string][]byte {
	tables := map[string][]byte{}
	if len(data) < 12 {
		return tables
	}
	n := int(binary.BigEndian.Uint16(data[4:]))
	for i := 0; i < n && 12+16*i+16 <= len(data); i++ {
		rec := data[12+16*i:]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(data)) {
			continue
		}
		tables[string(rec[:4])] = data[off : off+length]
	}
	return tables
}

// type1ClearText returns the clear-text part of a Type 1 program, the
// text before `eexec` (PFA) or the first PFB segment's.
func type1ClearText(data []byte) []byte {
	if data[0] == 0x80 && len(data) >= 6 {
		n := binary.LittleEndian.Uint32(data[2:])
		if uint64(n) <= uint64(len(data)-6) {
			return data[6 : 6+n]
		}
		return data[6:]
	}
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		return data[:i]
	}
	return data
}

// type1Encoding returns the built-in encoding a Type 1 program's clear
// text defines (`/Encoding 256 array … dup 12 /fi put … readonly def`);
// none for `/Encoding StandardEncoding def`, which the engine knows.
func type1Encoding(clear []byte) map[uint32]string {
	i := bytes.Index(clear, []byte("/Encoding"))
	if i < 0 {
		return nil
	}
	enc := map[uint32]string{}
	rest := clear[i:]
	if j := bytes.Index(rest, []byte("readonly def")); j >= 0 {
		rest = rest[:j]
	} else if j := bytes.Index(rest, []byte(" def")); j >= 0 && !bytes.Contains(rest[:j], []byte("dup")) {
		return nil
	}
	for {
		j := bytes.Index(rest, []byte("dup "))
		if j < 0 {
			break
		}
		rest = rest[j+4:]
		f := bytes.Fields(rest)
		if len(f) < 3 || !bytes.Equal(f[2], []byte("put")) || len(f[1]) < 2 || f[1][0] != '/' {
			continue
		}
		code, err := strconv.ParseUint(string(f[0]), 10, 8)
		if err != nil {
			continue
		}
		enc[uint32(code)] = string(f[1][1:])
	}
	return enc
}
