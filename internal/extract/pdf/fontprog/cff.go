package fontprog

import (
	_ "embed"
	"encoding/binary"
	"strings"
	"sync"
)

// The built-in encoding of a bare CFF program (FontFile3 /Type1C, as
// Acrobat Distiller and Ghostscript embed Type 1 fonts), after Adobe
// Technical Note #5176 "The Compact Font Format Specification":
//
//	header      major (1), minor (1), hdrSize (1), offSize (1); the Name
//	            INDEX starts at hdrSize
//	INDEX       count (2, big-endian); when count > 0: offSize (1, 1–4),
//	            count+1 offsets of offSize bytes (1-based, from the byte
//	            before the data), the data
//	after it    Name INDEX, Top DICT INDEX, String INDEX (then the global
//	            subroutines, not read)
//	Top DICT    operands then operator: 32–246 (v-139), 247–250 and
//	            251–254 (two bytes), 28 (int16), 29 (int32), 30 (real,
//	            nibbles to 0xf); operators 0–21, 12 x two bytes. Read:
//	            charset (15), Encoding (16), CharStrings (17), ROS (12 30)
//	charset     0 ISOAdobe (glyph i is SID i), 1 and 2 predefined expert
//	            sets (not read), else the offset of format 0 (an SID a
//	            glyph from glyph 1), 1 (ranges: first SID (2), nLeft (1))
//	            or 2 (first SID (2), nLeft (2))
//	Encoding    0 Standard and 1 Expert (the engine knows them: not read),
//	            else the offset of format 0 (nCodes (1), a code a glyph
//	            from glyph 1) or 1 (nRanges (1), ranges first (1), nLeft
//	            (1)), the high bit of the format byte adding supplements
//	            (nSups (1), code (1), SID (2))
//	SID         < 391: a standard string (glyphdata/cff-strings.txt),
//	            else String INDEX entry SID-391
//
// A CID-keyed program (ROS) has no glyph names and gives nothing. Any
// offset or count outside the program ends the reading with what was
// read: the program comes from the file.

//go:embed glyphdata/cff-strings.txt
var cffStringsText string

var cffStandard = sync.OnceValue(func() []string {
	return strings.Split(strings.TrimRight(cffStringsText, "\n"), "\n")
})

// cffIndex returns the entries of the INDEX at off and the offset past it.
func cffIndex(b []byte, off int) ([][]byte, int, bool) {
	if off < 0 || off+2 > len(b) {
		return nil, 0, false
	}
	count := int(binary.BigEndian.Uint16(b[off:]))
	if count == 0 {
		return nil, off + 2, true
	}
	if off+3 > len(b) {
		return nil, 0, false
	}
	size := int(b[off+2])
	if size < 1 || size > 4 {
		return nil, 0, false
	}
	offs := off + 3
	if offs+(count+1)*size > len(b) {
		return nil, 0, false
	}
	at := func(i int) int {
		v := 0
		for _, c := range b[offs+i*size : offs+(i+1)*size] {
			v = v<<8 | int(c)
		}
		return v
	}
	base := offs + (count+1)*size - 1
	items := make([][]byte, count)
	for i := range items {
		s, e := at(i), at(i+1)
		if s < 1 || e < s || base+e > len(b) {
			return nil, 0, false
		}
		items[i] = b[base+s : base+e]
	}
	return items, base + at(count), true
}

// cffTopDict returns the integer operands of the Top DICT's operators
// (12 x as 1200+x), the last operand of each.
func cffTopDict(d []byte) map[int]int {
	ops := map[int]int{}
	var stack []int
	for i := 0; i < len(d); {
		c := d[i]
		switch {
		case c == 12:
			if i+1 >= len(d) {
				return ops
			}
			if len(stack) > 0 {
				ops[1200+int(d[i+1])] = stack[len(stack)-1]
			} else {
				ops[1200+int(d[i+1])] = 0
			}
			stack, i = stack[:0], i+2
		case c <= 21:
			if len(stack) > 0 {
				ops[int(c)] = stack[len(stack)-1]
			}
			stack, i = stack[:0], i+1
		case c == 28:
			if i+3 > len(d) {
				return ops
			}
			stack, i = append(stack, int(int16(binary.BigEndian.Uint16(d[i+1:])))), i+3
		case c == 29:
			if i+5 > len(d) {
				return ops
			}
			stack, i = append(stack, int(int32(binary.BigEndian.Uint32(d[i+1:])))), i+5
		case c == 30:
			i++
			for i < len(d) && d[i]&0xf != 0xf && d[i]>>4 != 0xf {
				i++
			}
			stack, i = append(stack, 0), i+1
		case c >= 32 && c <= 246:
			stack, i = append(stack, int(c)-139), i+1
		case c >= 247 && c <= 250:
			if i+2 > len(d) {
				return ops
			}
			stack, i = append(stack, (int(c)-247)*256+int(d[i+1])+108), i+2
		case c >= 251 && c <= 254:
			if i+2 > len(d) {
				return ops
			}
			stack, i = append(stack, -(int(c)-251)*256-int(d[i+1])-108), i+2
		default:
			i++
		}
		if len(stack) > 48 {
			return ops
		}
	}
	return ops
}

// cffEncoding returns code → glyph name of a bare CFF program's built-in
// encoding; nil when it has none of its own.
func cffEncoding(b []byte) map[uint32]string {
	if len(b) < 4 || b[0] != 1 {
		return nil
	}
	_, next, ok := cffIndex(b, int(b[2]))
	if !ok {
		return nil
	}
	tops, next, ok := cffIndex(b, next)
	if !ok || len(tops) == 0 {
		return nil
	}
	strs, _, ok := cffIndex(b, next)
	if !ok {
		return nil
	}
	top := cffTopDict(tops[0])
	if _, cid := top[1230]; cid {
		return nil
	}
	encOff, charsetOff := top[16], top[15]
	if encOff <= 1 || encOff >= len(b) {
		return nil
	}
	glyphs, _, ok := cffIndex(b, top[17])
	if !ok || len(glyphs) == 0 {
		return nil
	}
	n := len(glyphs)
	std := cffStandard()
	name := func(sid int) string {
		switch {
		case sid < len(std):
			return std[sid]
		case sid-len(std) < len(strs):
			return string(strs[sid-len(std)])
		}
		return ""
	}
	sids := cffCharset(b, charsetOff, n)
	if sids == nil {
		return nil
	}
	return cffCodes(b, encOff, sids, name)
}

// cffCharset returns the SID of each of n glyphs (glyph 0 is .notdef);
// nil for a predefined expert charset or an offset outside the program.
func cffCharset(b []byte, charsetOff, n int) []int {
	sids := make([]int, n)
	switch {
	case charsetOff == 0:
		for g := range sids {
			sids[g] = g
		}
	case charsetOff > 2 && charsetOff < len(b):
		p := charsetOff + 1
		switch b[charsetOff] {
		case 0:
			for g := 1; g < n && p+2 <= len(b); g, p = g+1, p+2 {
				sids[g] = int(binary.BigEndian.Uint16(b[p:]))
			}
		case 1, 2:
			wide := b[charsetOff] == 2
			step := 3
			if wide {
				step = 4
			}
			for g := 1; g < n && p+step <= len(b); p += step {
				first := int(binary.BigEndian.Uint16(b[p:]))
				left := int(b[p+2])
				if wide {
					left = int(binary.BigEndian.Uint16(b[p+2:]))
				}
				for k := 0; k <= left && g < n; k, g = k+1, g+1 {
					sids[g] = first + k
				}
			}
		}
	default:
		return nil
	}
	return sids
}

// cffCodes returns code → glyph name of the custom encoding at encOff.
func cffCodes(b []byte, encOff int, sids []int, name func(int) string) map[uint32]string {
	n := len(sids)
	enc := map[uint32]string{}
	format := b[encOff]
	p := encOff + 1
	switch format & 0x7f {
	case 0:
		if p >= len(b) {
			return nil
		}
		codes := int(b[p])
		p++
		for g := 1; g <= codes && g < n && p < len(b); g, p = g+1, p+1 {
			enc[uint32(b[p])] = name(sids[g])
		}
	case 1:
		if p >= len(b) {
			return nil
		}
		ranges := int(b[p])
		p++
		g := 1
		for r := 0; r < ranges && p+2 <= len(b); r, p = r+1, p+2 {
			first, left := int(b[p]), int(b[p+1])
			for k := 0; k <= left && g < n && first+k < 256; k, g = k+1, g+1 {
				enc[uint32(first+k)] = name(sids[g])
			}
		}
	default:
		return nil
	}
	if format&0x80 != 0 && p < len(b) {
		sups := int(b[p])
		p++
		for s := 0; s < sups && p+3 <= len(b); s, p = s+1, p+3 {
			enc[uint32(b[p])] = name(int(binary.BigEndian.Uint16(b[p+1:])))
		}
	}
	return enc
}
