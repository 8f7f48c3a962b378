package xls

import (
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// Cell notes and shapes of a BIFF8 worksheet ([MS-XLS] 2.4.179 Note,
// 2.4.181 Obj, 2.4.329 TxO, 2.4.188 MsoDrawing): each drawing object is an
// OBJ record (its type and id) after the MSODRAWING record holding its
// OfficeArt shape container, whose OfficeArtClientAnchorSheet atom
// (0xF010) gives the top-left cell; a TXO record after the OBJ holds the
// object's text in the CONTINUE records that follow it (a flag byte at the
// start of each). A NOTE record at the end of the sheet ties a cell to the
// id of its comment object. BIFF5 notes carry their text in the NOTE
// record itself (continued by NOTE records with row 0xFFFF) and BIFF5 OBJ
// records carry their anchor.

// OBJ types (FtCmo.ot) whose text Excel shows on the sheet as a shape:
// lines, rectangles, ovals, arcs, text boxes, polygons and Office Art
// shapes; form controls, pictures, charts and notes are not shapes.
var shapeTypes = map[int]bool{0x01: true, 0x02: true, 0x03: true, 0x04: true, 0x06: true, 0x09: true, 0x1E: true}

// objRef is one OBJ record.
type objRef struct {
	id, ot   int
	row, col int  // anchor, 1-based
	empty    bool // zero width or height: nothing shows (LibreOffice drops it)
}

// noteRef is one NOTE record.
type noteRef struct {
	row, col int // 1-based
	id       int // BIFF8: object id of the comment
	text     string
}

// drawing collects a sheet's objects while its records stream by.
type drawing struct {
	row, col int  // last anchor seen in MSODRAWING, 1-based
	empty    bool // that anchor has no width or no height
	objs     []objRef
	lastID   int
	hasObj   bool
	texts    map[int]string
	charts   map[int]*chart
	notes    []noteRef
}

func newXlsDrawing() drawing { return drawing{row: 1, col: 1} }

// drawing walks the OfficeArt records of one MSODRAWING record and keeps
// the last client anchor. Containers (version 0xF) are entered; an atom
// running past the record ends the walk.
func (d *drawing) drawing(data []byte) {
	for i := 0; i+8 <= len(data); {
		verInst := biff.Le16(data, i)
		typ := biff.Le16(data, i+2)
		n := int(biff.Le32(data, i+4))
		if verInst&0xF == 0xF {
			i += 8
			continue
		}
		if n < 0 || n > len(data)-i-8 {
			return
		}
		if typ == 0xF010 && n >= 18 {
			// flags, colL, dxL, rwT, dyT, colR, dxR, rwB, dyB
			a := data[i+8:]
			d.col = biff.Le16(a, 2) + 1
			d.row = biff.Le16(a, 6) + 1
			d.empty = biff.Le16(a, 2) == biff.Le16(a, 10) && biff.Le16(a, 4) == biff.Le16(a, 12) ||
				biff.Le16(a, 6) == biff.Le16(a, 14) && biff.Le16(a, 8) == biff.Le16(a, 16)
		}
		i += 8 + n
	}
}

// obj reads the common object data of an OBJ record (FtCmo, [MS-XLS]
// 2.5.143); BIFF5 OBJ records hold the anchor too.
func (d *drawing) obj(b *book, data []byte) {
	if b.biff5 {
		if len(data) < 16 {
			return
		}
		o := objRef{ot: biff.Le16(data, 4), id: biff.Le16(data, 6), col: biff.Le16(data, 10) + 1, row: biff.Le16(data, 14) + 1}
		d.objs = append(d.objs, o)
		d.lastID, d.hasObj = o.id, true
		return
	}
	if len(data) < 8 || biff.Le16(data, 0) != 0x15 {
		return
	}
	o := objRef{ot: biff.Le16(data, 4), id: biff.Le16(data, 6), row: d.row, col: d.col, empty: d.empty}
	d.objs = append(d.objs, o)
	d.lastID, d.hasObj = o.id, true
}

// txo reads a TXO record's text from its CONTINUE records and files it
// under the id of the OBJ before it.
func (d *drawing) txo(b *book, data []byte) error {
	segs, err := b.rr.WithContinues(data, b.budget)
	if err != nil {
		return err
	}
	data = segs[0] // the reader's buffer now holds the last CONTINUE
	if len(data) < 12 || !d.hasObj || len(segs) < 2 {
		return nil
	}
	cch := biff.Le16(data, 10)
	var text string
	if b.biff5 {
		var raw []byte
		for _, s := range segs[1:] {
			raw = append(raw, s[:min(len(s), cch-len(raw))]...)
			if len(raw) >= cch {
				break
			}
		}
		text = b.cp.Decode(raw)
	} else {
		c := &Cursor{Segs: segs[1:]}
		high := false
		if !c.AdvanceFlag(&high) {
			return nil
		}
		text, _ = c.Chars(cch, high)
	}
	if d.texts == nil {
		d.texts = map[int]string{}
	}
	d.texts[d.lastID] = text
	return nil
}

// note reads a NOTE record ([MS-XLS] 2.4.179; BIFF5 holds the text).
func (d *drawing) note(b *book, data []byte) error {
	if len(data) < 6 {
		return nil
	}
	row, col := biff.Le16(data, 0), biff.Le16(data, 2)
	if b.biff5 {
		text := b.biff5String(data, 4, 2)
		if row == 0xFFFF && len(d.notes) > 0 {
			d.notes[len(d.notes)-1].text += text
			return nil
		}
		d.notes = append(d.notes, noteRef{row: row + 1, col: col + 1, text: text})
		return nil
	}
	if len(data) < 8 {
		return nil
	}
	d.notes = append(d.notes, noteRef{row: row + 1, col: col + 1, id: biff.Le16(data, 6)})
	return nil
}

// lastChart reports whether the last OBJ record is an embedded chart.
func (d *drawing) lastChart() bool {
	return len(d.objs) > 0 && d.objs[len(d.objs)-1].ot == objChart
}

// chart files the chart of the last OBJ.
func (d *drawing) chart(c *chart) {
	if d.charts == nil {
		d.charts = map[int]*chart{}
	}
	d.charts[d.objs[len(d.objs)-1].id] = c
}

// finish files the sheet's comments and shapes.
func (d *drawing) finish(b *book, s *sheet.Sheet) error {
	for _, n := range d.notes {
		text := n.text
		if !b.biff5 {
			text = d.texts[n.id]
		}
		if err := s.Object(&s.Comments, n.row, n.col, text); err != nil {
			return err
		}
	}
	for _, o := range d.objs {
		if o.ot == objChart && !o.empty {
			if c, ok := d.charts[o.id]; ok {
				s.ChartObject(o.row, o.col, c)
			}
			continue
		}
		if !shapeTypes[o.ot] || o.empty {
			continue
		}
		if t, ok := d.texts[o.id]; ok {
			if err := s.Object(&s.Shapes, o.row, o.col, paragraphs(t)); err != nil {
				return err
			}
		}
	}
	return nil
}

// paragraphs gives shape text the form of the .xlsx reader's drawing
// text: one trimmed paragraph per line, empty paragraphs dropped.
func paragraphs(t string) string {
	t = strings.ReplaceAll(strings.ReplaceAll(t, "\r\n", "\n"), "\r", "\n")
	var keep []string
	for _, l := range strings.Split(t, "\n") {
		if l = strings.TrimSpace(strings.ReplaceAll(l, "\t", " ")); l != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
