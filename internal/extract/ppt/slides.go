package ppt

import (
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
)

// Slides and notes pages of a .ppt: the shapes of the PPDrawing
// (OfficeArtDgContainer → OfficeArtSpgrContainer → OfficeArtSpContainer,
// groups nested), in drawing order.

// Placeholder types (PlaceholderEnum, [MS-PPT] 2.13.21) whose text is not
// slide text: the slide-image placeholders, date, slide number, footer and
// header.
const (
	phMasterNotesImage = 0x05
	phMasterDate       = 0x07
	phMasterSlideNum   = 0x08
	phMasterFooter     = 0x09
	phMasterHeader     = 0x0A
	phNotesImage       = 0x0B
)

// OfficeArt details ([MS-ODRAW]).
const (
	msosptLine      = 20     // shape type of a straight line (a table border)
	propTableProps  = 0x039F // tableProperties of a group that is a table
	fspGroup        = 0x0001
	fspDeleted      = 0x0008
	noPlaceholder   = -1
	maxTableCells   = 1 << 16
	maxShapesPerDoc = 1 << 20
	maxObjects      = 4096
)

// slide is what one slide or notes page gives.
type slide struct {
	lines    []string
	hidden   bool
	notesID  uint32
	comments []string
	footers  []string
	objects  []uint32 // embedded object ids (ExObjRefAtom), in drawing order
}

// shape is one shape of a drawing.
type shape struct {
	typ     uint16 // shape type (FSP recInstance)
	flags   uint32
	ph      int // placeholder type, noPlaceholder when none
	text    string
	hasText bool
	left    int32
	top     int32
	table   bool
	object  uint32 // ExObjRefAtom's object id
	hasObj  bool
}

// slideReader reads one slide or notes container.
type slideReader struct {
	d      *pptDoc
	texts  []string // the page's SlideListWithText texts
	used   []bool
	out    *slide
	footer bool // a footer placeholder without own text was seen
	shapes int
}

// readSlide reads a Slide or Notes container whose persist id is id.
func (d *pptDoc) readSlide(rec officeart.Rec, id uint32) slide {
	var s slide
	if a, ok := rec.Child(officeart.RtSlideAtom); ok {
		s.notesID = a.U32(16)
	}
	if a, ok := rec.Child(officeart.RtSSSlideInfoAtom); ok {
		s.hidden = a.U16(10)&0x0004 != 0
	}
	sr := &slideReader{d: d, texts: d.texts[id], out: &s}
	sr.used = make([]bool, len(sr.texts))
	if dr, ok := rec.Child(officeart.RtPPDrawing); ok {
		for _, dg := range dr.Children() {
			if dg.Typ != officeart.RtOfficeArtDg {
				continue
			}
			for _, c := range dg.Children() {
				if c.Typ == officeart.RtOfficeArtSpgr {
					sr.group(c, 0)
				}
			}
		}
	}
	if sr.footer {
		f := d.footer
		if hf, ok := rec.Child(officeart.RtHeadersFooters); ok {
			f = footerText(hf)
		}
		if f != "" {
			s.footers = append(s.footers, f)
		}
	}
	rec.Find(officeart.RtComment10, func(c officeart.Rec) {
		for _, a := range c.Children() {
			if a.Typ == officeart.RtCString && a.Inst == 1 {
				if t := strings.TrimSpace(spaceControls(officeart.String(a))); t != "" {
					s.comments = append(s.comments, t)
				}
			}
		}
	})
	return s
}

// group reads an OfficeArtSpgrContainer: its first shape is the group
// itself; a group marked as a table gives rows.
func (sr *slideReader) group(g officeart.Rec, depth int) {
	if depth > officeart.MaxDepth {
		return
	}
	children := g.Children()
	for i, c := range children {
		if sr.shapes >= maxShapesPerDoc {
			return
		}
		switch c.Typ {
		case officeart.RtOfficeArtSp:
			sr.shapes++
			sh := sr.shape(c)
			if i == 0 && sh.table {
				sr.table(children[1:])
				return
			}
			if i == 0 && sh.flags&fspGroup != 0 {
				continue
			}
			sr.add(sh)
		case officeart.RtOfficeArtSpgr:
			sr.group(c, depth+1)
		}
	}
}

// add routes a shape's paragraphs to the slide, or to the footers.
func (sr *slideReader) add(sh shape) {
	if sh.flags&fspDeleted != 0 {
		return
	}
	if sh.hasObj && len(sr.out.objects) < maxObjects {
		sr.out.objects = append(sr.out.objects, sh.object)
	}
	switch sh.ph {
	case phMasterFooter:
		if t := strings.Join(paragraphs(sh.text), " "); t != "" {
			sr.out.footers = append(sr.out.footers, paragraphs(sh.text)...)
		} else {
			sr.footer = true
		}
		return
	case phMasterNotesImage, phMasterDate, phMasterSlideNum, phMasterHeader, phNotesImage:
		return
	}
	sr.out.lines = append(sr.out.lines, paragraphs(sh.text)...)
}

// shape reads one OfficeArtSpContainer.
func (sr *slideReader) shape(sp officeart.Rec) shape {
	sh := shape{ph: noPlaceholder}
	for _, c := range sp.Children() {
		switch c.Typ {
		case officeart.RtOfficeArtFSP:
			sh.typ = c.Inst
			sh.flags = c.U32(4)
		case officeart.RtOfficeArtFOPT, officeart.RtOfficeArtFOPT2, officeart.RtOfficeArtFOPT3:
			if v, ok := officeart.Property(c, propTableProps); ok && v&1 != 0 {
				sh.table = true
			}
		case officeart.RtOfficeArtChildAnc:
			sh.left, sh.top = int32(c.U32(0)), int32(c.U32(4))
		case officeart.RtOfficeArtClient:
			if len(c.Data) >= 16 {
				sh.top, sh.left = int32(c.U32(0)), int32(c.U32(4))
			} else {
				sh.top, sh.left = int32(int16(c.U16(0))), int32(int16(c.U16(2)))
			}
		case officeart.RtOfficeArtData:
			for _, a := range c.Children() {
				switch a.Typ {
				case officeart.RtPlaceholderAtom:
					if len(a.Data) >= 5 {
						sh.ph = int(a.Data[4])
					}
				case officeart.RtRoundTripHFPh12:
					if len(a.Data) >= 1 {
						sh.ph = int(a.Data[0])
					}
				case officeart.RtExObjRefAtom:
					if len(a.Data) >= 4 {
						sh.object, sh.hasObj = a.U32(0), true
					}
				}
			}
		case officeart.RtOfficeArtTextbox:
			var b officeart.TextBuilder
			for _, a := range c.Children() {
				if a.Typ == officeart.RtOutlineTextRefAtom {
					if i := int(int32(a.U32(0))); i >= 0 && i < len(sr.texts) {
						sh.text += sr.texts[i]
						sr.used[i] = true
						sh.hasText = true
					}
					continue
				}
				b.Add(a)
			}
			if b.Any {
				sh.text += b.String()
				sh.hasText = true
			}
		}
	}
	return sh
}

// table reads the cells of a table group: every shape but the border
// lines is a cell; cells with the same top form a row, rows ordered by top
// and cells by left. Each row is one line, cells joined by TAB (their
// paragraphs by spaces), trailing empty cells removed.
func (sr *slideReader) table(children []officeart.Rec) {
	var cells []shape
	var walk func([]officeart.Rec, int)
	walk = func(list []officeart.Rec, depth int) {
		for _, c := range list {
			if len(cells) >= maxTableCells || depth > officeart.MaxDepth {
				return
			}
			switch c.Typ {
			case officeart.RtOfficeArtSp:
				if sh := sr.shape(c); sh.typ != msosptLine && sh.flags&fspDeleted == 0 {
					cells = append(cells, sh)
				}
			case officeart.RtOfficeArtSpgr:
				walk(c.Children(), depth+1)
			}
		}
	}
	walk(children, 0)
	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].top != cells[j].top {
			return cells[i].top < cells[j].top
		}
		return cells[i].left < cells[j].left
	})
	for i := 0; i < len(cells); {
		j := i
		var row []string
		for ; j < len(cells) && cells[j].top == cells[i].top; j++ {
			row = append(row, strings.Join(paragraphs(cells[j].text), " "))
		}
		i = j
		for len(row) > 0 && row[len(row)-1] == "" {
			row = row[:len(row)-1]
		}
		if line := strings.TrimRight(strings.Join(row, "\t"), " \t\u3000"); strings.TrimSpace(line) != "" {
			sr.out.lines = append(sr.out.lines, line)
		}
	}
}

// paragraphs splits PowerPoint text at its paragraph marks (CR) into
// trimmed, non-empty lines; line breaks (VT) and TABs become spaces.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if t := strings.TrimSpace(spaceControls(p)); t != "" {
			out = append(out, t)
		}
	}
	return out
}
