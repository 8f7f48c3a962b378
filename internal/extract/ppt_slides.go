package extract

import (
	"encoding/binary"
	"sort"
	"strings"
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
	msosptLine         = 20     // shape type of a straight line (a table border)
	propTableProps     = 0x039F // tableProperties of a group that is a table
	propPictureID      = 0x010B // pictureId: a Word shape's OLE storage number
	fspGroup           = 0x0001
	fspDeleted         = 0x0008
	pptNoPlaceholder   = -1
	pptMaxTableCells   = 1 << 16
	pptMaxShapesPerDoc = 1 << 20
	pptMaxObjects      = 4096
)

// pptSlide is what one slide or notes page gives.
type pptSlide struct {
	lines    []string
	hidden   bool
	notesID  uint32
	comments []string
	footers  []string
	objects  []uint32 // embedded object ids (ExObjRefAtom), in drawing order
}

// pptShape is one shape of a drawing.
type pptShape struct {
	typ     uint16 // shape type (FSP recInstance)
	flags   uint32
	ph      int // placeholder type, pptNoPlaceholder when none
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
	out    *pptSlide
	footer bool // a footer placeholder without own text was seen
	shapes int
}

// readSlide reads a Slide or Notes container whose persist id is id.
func (d *pptDoc) readSlide(rec pptRec, id uint32) pptSlide {
	var s pptSlide
	if a, ok := rec.child(rtSlideAtom); ok {
		s.notesID = a.u32(16)
	}
	if a, ok := rec.child(rtSSSlideInfoAtom); ok {
		s.hidden = a.u16(10)&0x0004 != 0
	}
	sr := &slideReader{d: d, texts: d.texts[id], out: &s}
	sr.used = make([]bool, len(sr.texts))
	if dr, ok := rec.child(rtPPDrawing); ok {
		for _, dg := range dr.children() {
			if dg.typ != rtOfficeArtDg {
				continue
			}
			for _, c := range dg.children() {
				if c.typ == rtOfficeArtSpgr {
					sr.group(c, 0)
				}
			}
		}
	}
	if sr.footer {
		f := d.footer
		if hf, ok := rec.child(rtHeadersFooters); ok {
			f = pptFooterText(hf)
		}
		if f != "" {
			s.footers = append(s.footers, f)
		}
	}
	rec.find(rtComment10, func(c pptRec) {
		for _, a := range c.children() {
			if a.typ == rtCString && a.inst == 1 {
				if t := strings.TrimSpace(pptSpaceControls(pptString(a))); t != "" {
					s.comments = append(s.comments, t)
				}
			}
		}
	})
	return s
}

// group reads an OfficeArtSpgrContainer: its first shape is the group
// itself; a group marked as a table gives rows.
func (sr *slideReader) group(g pptRec, depth int) {
	if depth > pptMaxDepth {
		return
	}
	children := g.children()
	for i, c := range children {
		if sr.shapes >= pptMaxShapesPerDoc {
			return
		}
		switch c.typ {
		case rtOfficeArtSp:
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
		case rtOfficeArtSpgr:
			sr.group(c, depth+1)
		}
	}
}

// add routes a shape's paragraphs to the slide, or to the footers.
func (sr *slideReader) add(sh pptShape) {
	if sh.flags&fspDeleted != 0 {
		return
	}
	if sh.hasObj && len(sr.out.objects) < pptMaxObjects {
		sr.out.objects = append(sr.out.objects, sh.object)
	}
	switch sh.ph {
	case phMasterFooter:
		if t := strings.Join(pptParagraphs(sh.text), " "); t != "" {
			sr.out.footers = append(sr.out.footers, pptParagraphs(sh.text)...)
		} else {
			sr.footer = true
		}
		return
	case phMasterNotesImage, phMasterDate, phMasterSlideNum, phMasterHeader, phNotesImage:
		return
	}
	sr.out.lines = append(sr.out.lines, pptParagraphs(sh.text)...)
}

// shape reads one OfficeArtSpContainer.
func (sr *slideReader) shape(sp pptRec) pptShape {
	sh := pptShape{ph: pptNoPlaceholder}
	for _, c := range sp.children() {
		switch c.typ {
		case rtOfficeArtFSP:
			sh.typ = c.inst
			sh.flags = c.u32(4)
		case rtOfficeArtFOPT, rtOfficeArtFOPT2, rtOfficeArtFOPT3:
			if v, ok := pptProperty(c, propTableProps); ok && v&1 != 0 {
				sh.table = true
			}
		case rtOfficeArtChildAnc:
			sh.left, sh.top = int32(c.u32(0)), int32(c.u32(4))
		case rtOfficeArtClient:
			if len(c.data) >= 16 {
				sh.top, sh.left = int32(c.u32(0)), int32(c.u32(4))
			} else {
				sh.top, sh.left = int32(int16(c.u16(0))), int32(int16(c.u16(2)))
			}
		case rtOfficeArtData:
			for _, a := range c.children() {
				switch a.typ {
				case rtPlaceholderAtom:
					if len(a.data) >= 5 {
						sh.ph = int(a.data[4])
					}
				case rtRoundTripHFPh12:
					if len(a.data) >= 1 {
						sh.ph = int(a.data[0])
					}
				case rtExObjRefAtom:
					if len(a.data) >= 4 {
						sh.object, sh.hasObj = a.u32(0), true
					}
				}
			}
		case rtOfficeArtTextbox:
			var b pptTextBuilder
			for _, a := range c.children() {
				if a.typ == rtOutlineTextRefAtom {
					if i := int(int32(a.u32(0))); i >= 0 && i < len(sr.texts) {
						sh.text += sr.texts[i]
						sr.used[i] = true
						sh.hasText = true
					}
					continue
				}
				b.add(a)
			}
			if b.any {
				sh.text += b.String()
				sh.hasText = true
			}
		}
	}
	return sh
}

// pptProperty returns the value of property pid of an OfficeArtFOPT
// (recInstance properties of 6 bytes: 14-bit id and flags, 32-bit value).
func pptProperty(opt pptRec, pid uint16) (uint32, bool) {
	n := int(opt.inst)
	for i := 0; i < n && 6*i+6 <= len(opt.data); i++ {
		id := binary.LittleEndian.Uint16(opt.data[6*i:]) & 0x3FFF
		if id == pid {
			return binary.LittleEndian.Uint32(opt.data[6*i+2:]), true
		}
	}
	return 0, false
}

// table reads the cells of a table group: every shape but the border
// lines is a cell; cells with the same top form a row, rows ordered by top
// and cells by left. Each row is one line, cells joined by TAB (their
// paragraphs by spaces), trailing empty cells removed.
func (sr *slideReader) table(children []pptRec) {
	var cells []pptShape
	var walk func([]pptRec, int)
	walk = func(list []pptRec, depth int) {
		for _, c := range list {
			if len(cells) >= pptMaxTableCells || depth > pptMaxDepth {
				return
			}
			switch c.typ {
			case rtOfficeArtSp:
				if sh := sr.shape(c); sh.typ != msosptLine && sh.flags&fspDeleted == 0 {
					cells = append(cells, sh)
				}
			case rtOfficeArtSpgr:
				walk(c.children(), depth+1)
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
			row = append(row, strings.Join(pptParagraphs(cells[j].text), " "))
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

// pptParagraphs splits PowerPoint text at its paragraph marks (CR) into
// trimmed, non-empty lines; line breaks (VT) and TABs become spaces.
func pptParagraphs(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if t := strings.TrimSpace(pptSpaceControls(p)); t != "" {
			out = append(out, t)
		}
	}
	return out
}
