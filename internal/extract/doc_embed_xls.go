package extract

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
)

// The text cells of a workbook embedded in a .doc or .ppt (an Excel 97–2003
// "Workbook" stream, BIFF8, [MS-XLS]), as readEmbeddedWorkbook reads an
// embedded package (reference/extraction.md §9): the visible worksheets in
// BoundSheet order, and of each only its text cells — LABELSST (shared
// strings, with CONTINUE), LABEL, RSTRING and the string results of
// FORMULA (the STRING record after it). One line per row holding text: its
// text cells in column order joined by TAB; TAB, CR and LF inside a cell
// become spaces.
//
// A record is a 16-bit type and a 16-bit length followed by its body.

// BIFF8 record types.
const (
	embBiffBOF        = 0x0809
	embBiffEOF        = 0x000A
	embBiffBoundSheet = 0x0085
	embBiffSST        = 0x00FC
	embBiffContinue   = 0x003C
	embBiffLabelSST   = 0x00FD
	embBiffLabel      = 0x0204
	embBiffRString    = 0x00D6
	embBiffFormula    = 0x0006
	embBiffString     = 0x0207
	embBiffShrFmla    = 0x04BC
	embBiffArray      = 0x0221
	embBiffTable      = 0x0236
)

var errEmbBiff = errors.New("extract: malformed embedded workbook")

// embBiffRecord is one record of a BIFF stream.
type embBiffRecord struct {
	typ  uint16
	data []byte
	next int // offset of the following record
}

func embBiffAt(b []byte, off int) (embBiffRecord, bool) {
	if off < 0 || off+4 > len(b) {
		return embBiffRecord{}, false
	}
	n := int(binary.LittleEndian.Uint16(b[off+2:]))
	if off+4+n > len(b) {
		return embBiffRecord{}, false
	}
	return embBiffRecord{typ: binary.LittleEndian.Uint16(b[off:]), data: b[off+4 : off+4+n], next: off + 4 + n}, true
}

// embedBiffText returns the text rows of the visible worksheets.
func embedBiffText(b []byte) ([]string, error) {
	first, ok := embBiffAt(b, 0)
	if !ok || first.typ != embBiffBOF || len(first.data) < 2 || binary.LittleEndian.Uint16(first.data) != 0x0600 {
		return nil, fmt.Errorf("%w: not a BIFF8 workbook", errEmbBiff)
	}
	var sheets []int
	var sst []string
	for off := first.next; ; {
		r, ok := embBiffAt(b, off)
		if !ok {
			return nil, fmt.Errorf("%w: globals end at %d", errEmbBiff, off)
		}
		off = r.next
		switch r.typ {
		case embBiffBoundSheet:
			// lbPlyPos, hsState (low 2 bits 0: visible), dt (0: worksheet)
			if len(r.data) >= 6 && r.data[4]&3 == 0 && r.data[5] == 0 {
				sheets = append(sheets, int(binary.LittleEndian.Uint32(r.data)))
			}
		case embBiffSST:
			segs := [][]byte{r.data}
			for {
				c, ok := embBiffAt(b, off)
				if !ok || c.typ != embBiffContinue {
					break
				}
				segs = append(segs, c.data)
				off = c.next
			}
			sst = embBiffSSTStrings(segs)
		}
		if r.typ == embBiffEOF {
			break
		}
	}
	var out []string
	for _, pos := range sheets {
		out = append(out, embBiffSheetText(b, pos, sst)...)
	}
	return out, nil
}

// embBiffSheetText reads the text cells of the worksheet substream at pos.
func embBiffSheetText(b []byte, pos int, sst []string) []string {
	r, ok := embBiffAt(b, pos)
	if !ok || r.typ != embBiffBOF {
		return nil
	}
	type cell struct {
		row, col int
		text     string
	}
	var cells []cell
	add := func(d []byte, text string) {
		text = strings.TrimSpace(ooxmlSpaceControls(text))
		if text != "" {
			cells = append(cells, cell{int(binary.LittleEndian.Uint16(d)), int(binary.LittleEndian.Uint16(d[2:])), text})
		}
	}
	var formula []byte // the FORMULA whose STRING may follow
	for off := r.next; ; {
		r, ok := embBiffAt(b, off)
		if !ok || r.typ == embBiffEOF {
			break
		}
		off = r.next
		switch {
		case r.typ == embBiffLabelSST && len(r.data) >= 10:
			if i := int(binary.LittleEndian.Uint32(r.data[6:])); i >= 0 && i < len(sst) {
				add(r.data, sst[i])
			}
		case (r.typ == embBiffLabel || r.typ == embBiffRString) && len(r.data) >= 9:
			if s, ok := embBiffString16(r.data[6:]); ok {
				add(r.data, s)
			}
		case r.typ == embBiffFormula && len(r.data) >= 14:
			formula = nil
			if r.data[6] == 0 && r.data[12] == 0xFF && r.data[13] == 0xFF {
				formula = r.data
			}
			continue
		case r.typ == embBiffString && formula != nil:
			if s, ok := embBiffString16(r.data); ok {
				add(formula, s)
			}
		}
		switch r.typ {
		case embBiffContinue, embBiffShrFmla, embBiffArray, embBiffTable:
			// may stand between a FORMULA and its STRING
		default:
			formula = nil
		}
	}
	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].row != cells[j].row {
			return cells[i].row < cells[j].row
		}
		return cells[i].col < cells[j].col
	})
	var out []string
	for i := 0; i < len(cells); {
		j := i
		var row []string
		for ; j < len(cells) && cells[j].row == cells[i].row; j++ {
			row = append(row, cells[j].text)
		}
		out = append(out, strings.Join(row, "\t"))
		i = j
	}
	return out
}

// embBiffString16 decodes an XLUnicodeString (16-bit count, flags, chars)
// held whole in b.
func embBiffString16(b []byte) (string, bool) {
	if len(b) < 3 {
		return "", false
	}
	n := int(binary.LittleEndian.Uint16(b))
	c := &embBiffCursor{segs: [][]byte{b[3:]}}
	return c.chars(n, b[2]&1 != 0)
}

// embBiffSSTStrings reads the shared strings of an SST record and its
// CONTINUE records (segs): cstTotal, cstUnique, then
// XLUnicodeRichExtendedStrings; a string's characters may cross into the
// next segment, which then starts with a new flags byte.
func embBiffSSTStrings(segs [][]byte) []string {
	c := &embBiffCursor{segs: segs}
	if _, ok := c.bytes(4); !ok {
		return nil
	}
	u, ok := c.bytes(4)
	if !ok {
		return nil
	}
	unique := int(binary.LittleEndian.Uint32(u))
	var out []string
	for i := 0; i < unique; i++ {
		h, ok := c.bytes(3)
		if !ok {
			break
		}
		n, flags := int(binary.LittleEndian.Uint16(h)), h[2]
		runs, ext := 0, 0
		if flags&0x08 != 0 {
			b, ok := c.bytes(2)
			if !ok {
				break
			}
			runs = int(binary.LittleEndian.Uint16(b))
		}
		if flags&0x04 != 0 {
			b, ok := c.bytes(4)
			if !ok {
				break
			}
			ext = int(binary.LittleEndian.Uint32(b))
		}
		s, ok := c.chars(n, flags&1 != 0)
		if !ok {
			break
		}
		if !c.skip(4*runs) || !c.skip(ext) {
			out = append(out, s)
			break
		}
		out = append(out, s)
	}
	return out
}

// embBiffCursor reads across record segments.
type embBiffCursor struct {
	segs [][]byte
	seg  int
	off  int
}

// bytes returns the next n bytes, joined across segments.
func (c *embBiffCursor) bytes(n int) ([]byte, bool) {
	var out []byte
	for n > 0 {
		if c.seg >= len(c.segs) {
			return nil, false
		}
		s := c.segs[c.seg][c.off:]
		if len(s) == 0 {
			c.seg, c.off = c.seg+1, 0
			continue
		}
		k := min(n, len(s))
		out = append(out, s[:k]...)
		c.off += k
		n -= k
	}
	return out, true
}

// skip passes n bytes.
func (c *embBiffCursor) skip(n int) bool {
	for n > 0 {
		if c.seg >= len(c.segs) {
			return false
		}
		rest := len(c.segs[c.seg]) - c.off
		if rest == 0 {
			c.seg, c.off = c.seg+1, 0
			continue
		}
		k := min(n, rest)
		c.off += k
		n -= k
	}
	return true
}

// chars reads n characters, one byte each (Latin-1) or two (UTF-16LE); at
// a segment boundary a flags byte chooses the width of the rest.
func (c *embBiffCursor) chars(n int, high bool) (string, bool) {
	u := make([]uint16, 0, min(n, 1<<16))
	for len(u) < n {
		if c.seg >= len(c.segs) {
			return "", false
		}
		s := c.segs[c.seg][c.off:]
		if len(s) == 0 {
			c.seg, c.off = c.seg+1, 0
			if c.seg >= len(c.segs) || len(c.segs[c.seg]) == 0 {
				return "", false
			}
			high = c.segs[c.seg][0]&1 != 0
			c.off = 1
			continue
		}
		if high {
			if len(s) < 2 {
				return "", false
			}
			u = append(u, binary.LittleEndian.Uint16(s))
			c.off += 2
		} else {
			u = append(u, uint16(s[0]))
			c.off++
		}
	}
	return string(utf16.Decode(u)), true
}
