package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
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
	BiffBOF        = 0x0809
	BiffEOF        = 0x000A
	BiffBoundSheet = 0x0085
	BiffSST        = 0x00FC
	BiffContinue   = 0x003C
	BiffLabelSST   = 0x00FD
	BiffLabel      = 0x0204
	biffRString    = 0x00D6
	BiffFormula    = 0x0006
	BiffString     = 0x0207
	biffShrFmla    = 0x04BC
	biffArray      = 0x0221
	biffTable      = 0x0236
)

var errEmbBiff = errors.New("extract: malformed embedded workbook")

// biffRecord is one record of a BIFF stream.
type biffRecord struct {
	typ  uint16
	data []byte
	next int // offset of the following record
}

func biffAt(b []byte, off int) (biffRecord, bool) {
	if off < 0 || off+4 > len(b) {
		return biffRecord{}, false
	}
	n := int(binary.LittleEndian.Uint16(b[off+2:]))
	if off+4+n > len(b) {
		return biffRecord{}, false
	}
	return biffRecord{typ: binary.LittleEndian.Uint16(b[off:]), data: b[off+4 : off+4+n], next: off + 4 + n}, true
}

// BiffText returns the text rows of the visible worksheets.
func BiffText(b []byte) ([]string, error) {
	first, ok := biffAt(b, 0)
	if !ok || first.typ != BiffBOF || len(first.data) < 2 || binary.LittleEndian.Uint16(first.data) != 0x0600 {
		return nil, fmt.Errorf("%w: not a BIFF8 workbook", errEmbBiff)
	}
	var sheets []int
	var sst []string
	for off := first.next; ; {
		r, ok := biffAt(b, off)
		if !ok {
			return nil, fmt.Errorf("%w: globals end at %d", errEmbBiff, off)
		}
		off = r.next
		switch r.typ {
		case BiffBoundSheet:
			// lbPlyPos, hsState (low 2 bits 0: visible), dt (0: worksheet)
			if len(r.data) >= 6 && r.data[4]&3 == 0 && r.data[5] == 0 {
				sheets = append(sheets, int(binary.LittleEndian.Uint32(r.data)))
			}
		case BiffSST:
			segs := [][]byte{r.data}
			for {
				c, ok := biffAt(b, off)
				if !ok || c.typ != BiffContinue {
					break
				}
				segs = append(segs, c.data)
				off = c.next
			}
			sst = biffSSTStrings(segs)
		}
		if r.typ == BiffEOF {
			break
		}
	}
	var out []string
	for _, pos := range sheets {
		out = append(out, biffSheetText(b, pos, sst)...)
	}
	return out, nil
}

// biffSheetText reads the text cells of the worksheet substream at pos.
func biffSheetText(b []byte, pos int, sst []string) []string {
	r, ok := biffAt(b, pos)
	if !ok || r.typ != BiffBOF {
		return nil
	}
	type cell struct {
		row, col int
		text     string
	}
	var cells []cell
	add := func(d []byte, text string) {
		text = strings.TrimSpace(ooxml.SpaceControls(text))
		if text != "" {
			cells = append(cells, cell{int(binary.LittleEndian.Uint16(d)), int(binary.LittleEndian.Uint16(d[2:])), text})
		}
	}
	var formula []byte // the FORMULA whose STRING may follow
	for off := r.next; ; {
		r, ok := biffAt(b, off)
		if !ok || r.typ == BiffEOF {
			break
		}
		off = r.next
		switch {
		case r.typ == BiffLabelSST && len(r.data) >= 10:
			if i := int(binary.LittleEndian.Uint32(r.data[6:])); i >= 0 && i < len(sst) {
				add(r.data, sst[i])
			}
		case (r.typ == BiffLabel || r.typ == biffRString) && len(r.data) >= 9:
			if s, ok := biffString16(r.data[6:]); ok {
				add(r.data, s)
			}
		case r.typ == BiffFormula && len(r.data) >= 14:
			formula = nil
			if r.data[6] == 0 && r.data[12] == 0xFF && r.data[13] == 0xFF {
				formula = r.data
			}
			continue
		case r.typ == BiffString && formula != nil:
			if s, ok := biffString16(r.data); ok {
				add(formula, s)
			}
		}
		switch r.typ {
		case BiffContinue, biffShrFmla, biffArray, biffTable:
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

// biffString16 decodes an XLUnicodeString (16-bit count, flags, chars)
// held whole in b.
func biffString16(b []byte) (string, bool) {
	if len(b) < 3 {
		return "", false
	}
	n := int(binary.LittleEndian.Uint16(b))
	c := &biffCursor{segs: [][]byte{b[3:]}}
	return c.chars(n, b[2]&1 != 0)
}

// biffSSTStrings reads the shared strings of an SST record and its
// CONTINUE records (segs): cstTotal, cstUnique, then
// XLUnicodeRichExtendedStrings; a string's characters may cross into the
// next segment, which then starts with a new flags byte.
func biffSSTStrings(segs [][]byte) []string {
	c := &biffCursor{segs: segs}
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

// biffCursor reads across record segments.
type biffCursor struct {
	segs [][]byte
	seg  int
	off  int
}

// bytes returns the next n bytes, joined across segments.
func (c *biffCursor) bytes(n int) ([]byte, bool) {
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
func (c *biffCursor) skip(n int) bool {
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
func (c *biffCursor) chars(n int, high bool) (string, bool) {
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
