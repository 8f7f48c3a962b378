package ooxml

import (
	"encoding/xml"
	"strings"
)

// lineReader is the state machine behind ReadLines and
// ReadElementLines (lines.go): a stack with one entry per open
// element, the frames of open paragraphs, rows, cells, text boxes, shapes
// and alternate-content blocks, and the page counters of §7.2.

// pageRef is a page in both counting modes.
type pageRef struct{ r, e int }

type frameKind uint8

const (
	fPara     frameKind = iota + 1
	fRow                // table row
	fCell               // table cell
	fBox                // text box collected as an object
	fBoxLines           // text box whose lines go straight to the output
	fShape              // PresentationML shape (placeholder type)
	fAlt                // mc:AlternateContent
	fSect               // w:sectPr inside w:pPr
	fText               // w:t / a:t
)

type frame struct {
	kind    frameKind
	text    strings.Builder // fPara
	parts   []string        // fCell: paragraph texts; fBox: lines
	cells   []string        // fRow
	page    pageRef
	hasPage bool
	ph      string // fShape
	seen    bool   // fAlt: a choice was read
	sect    bool   // fPara: has a section break
	sectOn  bool   // fPara: the section break counts (not continuous)
}

type lineReader struct {
	opt   LineOptions
	out   xmlLines
	stack []*frame // one entry per open element; nil for plain elements
	names []xml.Name
	paras []*frame // open paragraphs, innermost last

	cur      pageRef
	boxes    int  // open text boxes (no page counting inside)
	pending  bool // an explicit break not yet followed by non-blank text
	sawText  bool // non-blank text seen outside text boxes
	rendered bool
	blank    int // empty body paragraphs since the last line
	lines    []lineAt
	objs     []objAt
}

type lineAt struct {
	xmlLine
	at pageRef
}

type objAt struct {
	Object
	at pageRef
}

func newLineReader(opt LineOptions) *lineReader {
	return &lineReader{opt: opt, cur: pageRef{1, 1}}
}

func (lr *lineReader) result() *xmlLines {
	out := &xmlLines{Rendered: lr.rendered, Setup: lr.out.Setup}
	pick := func(p pageRef) int {
		if !lr.opt.Pages {
			return 1
		}
		if lr.rendered {
			return p.r
		}
		return p.e
	}
	for _, l := range lr.lines {
		l.Page = pick(l.at)
		out.Lines = append(out.Lines, l.xmlLine)
	}
	for _, o := range lr.objs {
		o.Page = pick(o.at)
		out.Objects = append(out.Objects, o.Object)
	}
	return out
}

func (lr *lineReader) parent() xml.Name {
	if n := len(lr.names); n >= 2 {
		return lr.names[n-2]
	}
	return xml.Name{}
}

func (lr *lineReader) push(n xml.Name, f *frame) {
	lr.names = append(lr.names, n)
	lr.stack = append(lr.stack, f)
	if f != nil && f.kind == fPara {
		lr.paras = append(lr.paras, f)
	}
}

// token handles one token. Elements to skip are consumed through d.
func (lr *lineReader) token(d *Decoder, tok xml.Token) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return lr.start(d, t)
	case xml.EndElement:
		lr.end()
	case xml.CharData:
		if n := len(lr.stack); n > 0 && lr.stack[n-1] != nil && lr.stack[n-1].kind == fText {
			lr.addText(string(t))
		}
	}
	return nil
}

func (lr *lineReader) start(d *Decoder, se xml.StartElement) error {
	n := se.Name
	var f *frame
	skip := false
	switch {
	case IsMC(n):
		f, skip = lr.startMC(n)
	case IsW(n):
		f, skip = lr.startW(se)
	case isA(n):
		switch n.Local {
		case "rPr", "endParaRPr":
			return d.Skip()
		case "br":
			lr.addText(" ")
		default:
			f = textFrame(n.Local)
		}
	case IsP(n):
		switch n.Local {
		case "sp", "graphicFrame", "pic", "cxnSp":
			f = &frame{kind: fShape}
		case "ph":
			if s := lr.shape(); s != nil {
				s.ph = Attr(se, "type")
			}
		case "oleObj":
			lr.object(ObjEmbed, RelAttr(se, "id"))
		}
	case isDgm(n):
		if n.Local == "relIds" {
			lr.object(ObjSmartArt, RelAttr(se, "dm"))
		}
	case isC(n):
		if n.Local == "chart" {
			lr.object(ObjChart, RelAttr(se, "id"))
		}
	case n.Space == nsO:
		if n.Local == "OLEObject" && Attr(se, "Type") == "Embed" {
			lr.object(ObjEmbed, RelAttr(se, "id"))
		}
	}
	if skip {
		return d.Skip()
	}
	lr.push(n, f)
	return nil
}

// startMC opens a markup-compatibility element: the first Choice of an
// AlternateContent is read, the other choices and the Fallback skipped.
func (lr *lineReader) startMC(n xml.Name) (f *frame, skip bool) {
	switch n.Local {
	case "Fallback":
		return nil, true
	case "Choice":
		if p := lr.top(); p != nil && p.kind == fAlt {
			if p.seen {
				return nil, true
			}
			p.seen = true
		}
	case "AlternateContent":
		f = &frame{kind: fAlt}
	}
	return f, false
}

// startW opens a WordprocessingML element; skip says to pass over it.
func (lr *lineReader) startW(se xml.StartElement) (f *frame, skip bool) {
	n := se.Name
	switch n.Local {
	case "moveFrom", "delText", "delInstrText", "instrText", "rPr",
		"pPrChange", "sectPrChange", "rPrChange":
		// (the *Change elements keep the formatting before a tracked
		// change: an old pageBreakBefore or section break is no break)
		return nil, true
	case "txbxContent":
		if lr.opt.Boxes {
			f = &frame{kind: fBox, page: lr.cur, hasPage: true}
		} else {
			f = &frame{kind: fBoxLines}
		}
		lr.boxes++
	case "tab", "ptab":
		if lr.parentIs(n, "r") {
			lr.addText(" ")
		}
	case "cr":
		lr.addText(" ")
	case "noBreakHyphen":
		lr.addText("-")
	case "br":
		switch Attr(se, "type") {
		case "page":
			lr.explicitBreak()
		case "column":
		default:
			lr.addText(" ")
		}
	case "lastRenderedPageBreak":
		lr.renderedBreak()
	case "pageBreakBefore":
		if p := lr.para(); p != nil && lr.parentIs(n, "pPr") && !isOff(Attr(se, "val")) && lr.sawText {
			lr.explicitBreak()
		}
	case "sectPr":
		if p := lr.para(); p != nil && lr.parentIs(n, "pPr") {
			p.sect, p.sectOn = true, true
			f = &frame{kind: fSect}
		}
	case "type":
		if p := lr.top(); p != nil && p.kind == fSect && Attr(se, "val") == "continuous" {
			if q := lr.para(); q != nil {
				q.sectOn = false
			}
		}
	case "pgSz", "pgMar", "docGrid":
		if lr.opt.Pages && lr.boxes == 0 {
			lr.out.Setup.read(se)
		}
	case "commentReference":
		lr.object(ObjComment, Attr(se, "id"))
	case "objectEmbed":
		lr.object(ObjEmbed, RelAttr(se, "id"))
	default:
		f = textFrame(n.Local)
	}
	return f, false
}

// textFrame returns a new frame for the paragraph, table row, table cell
// and text elements, which WordprocessingML (w:) and DrawingML (a:) name
// alike, and nil for any other local name.
func textFrame(local string) *frame {
	switch local {
	case "p":
		return &frame{kind: fPara}
	case "tr":
		return &frame{kind: fRow}
	case "tc":
		return &frame{kind: fCell}
	case "t":
		return &frame{kind: fText}
	}
	return nil
}

func (lr *lineReader) parentIs(n xml.Name, local string) bool {
	// n is not pushed yet: its parent is the top of the stack.
	if len(lr.names) == 0 {
		return false
	}
	p := lr.names[len(lr.names)-1]
	return p.Local == local && p.Space == n.Space
}

func (lr *lineReader) top() *frame {
	if len(lr.stack) == 0 {
		return nil
	}
	return lr.stack[len(lr.stack)-1]
}

func (lr *lineReader) para() *frame {
	if len(lr.paras) == 0 {
		return nil
	}
	return lr.paras[len(lr.paras)-1]
}

func (lr *lineReader) shape() *frame {
	for i := len(lr.stack) - 1; i >= 0; i-- {
		if f := lr.stack[i]; f != nil && f.kind == fShape {
			return f
		}
	}
	return nil
}

func (lr *lineReader) ph() string {
	if s := lr.shape(); s != nil {
		return s.ph
	}
	return ""
}

func (lr *lineReader) counting() bool { return lr.opt.Pages && lr.boxes == 0 }

func (lr *lineReader) explicitBreak() {
	if !lr.counting() {
		return
	}
	lr.cur.r++
	lr.cur.e++
	lr.pending = true
}

func (lr *lineReader) renderedBreak() {
	if !lr.counting() {
		return
	}
	lr.rendered = true
	if lr.pending {
		lr.pending = false
		return
	}
	lr.cur.r++
}

func (lr *lineReader) object(k objKind, id string) {
	if !lr.opt.Objects || id == "" {
		return
	}
	lr.objs = append(lr.objs, objAt{Object: Object{Kind: k, ID: id, Ph: lr.ph(), Line: len(lr.lines)}, at: lr.cur})
}

// addText appends text to the innermost open paragraph.
func (lr *lineReader) addText(s string) {
	p := lr.para()
	if p == nil {
		return
	}
	if strings.ContainsAny(s, "\t\r\n") {
		s = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)
	}
	p.text.WriteString(s)
	if strings.TrimSpace(s) == "" {
		return
	}
	if lr.boxes == 0 {
		lr.sawText = true
		lr.pending = false
	}
	// Date the paragraph and its enclosing rows, up to the first frame
	// already dated or a text box.
	for i := len(lr.stack) - 1; i >= 0; i-- {
		f := lr.stack[i]
		if f == nil {
			continue
		}
		if f.kind == fBox || f.kind == fBoxLines {
			break
		}
		if f.kind != fPara && f.kind != fRow {
			continue
		}
		if f.hasPage {
			break
		}
		f.page, f.hasPage = lr.cur, true
	}
}

func (lr *lineReader) end() {
	n := len(lr.stack)
	if n == 0 {
		return
	}
	f := lr.stack[n-1]
	lr.stack = lr.stack[:n-1]
	lr.names = lr.names[:n-1]
	if f == nil {
		return
	}
	switch f.kind {
	case fPara:
		lr.paras = lr.paras[:len(lr.paras)-1]
		lr.endPara(f)
	case fCell:
		if r := lr.enclosing(fRow); r != nil {
			r.cells = append(r.cells, strings.Join(f.parts, " "))
		}
	case fRow:
		lr.endRow(f)
	case fBox:
		lr.boxes--
		text := strings.TrimSpace(strings.ReplaceAll(strings.Join(f.parts, " "), "\t", " "))
		if text != "" && lr.opt.Objects {
			lr.objs = append(lr.objs, objAt{Object: Object{Kind: ObjTextBox, Text: text, Ph: lr.ph(), Line: len(lr.lines)}, at: f.page})
		}
	case fBoxLines:
		lr.boxes--
	}
}

// enclosing returns the innermost open frame of kind k.
func (lr *lineReader) enclosing(k frameKind) *frame {
	for i := len(lr.stack) - 1; i >= 0; i-- {
		if f := lr.stack[i]; f != nil && f.kind == k {
			return f
		}
	}
	return nil
}

// sink returns the innermost open cell or text box, or nil for the output.
func (lr *lineReader) sink() *frame {
	for i := len(lr.stack) - 1; i >= 0; i-- {
		if f := lr.stack[i]; f != nil && (f.kind == fCell || f.kind == fBox || f.kind == fBoxLines) {
			return f
		}
	}
	return nil
}

func (lr *lineReader) endPara(p *frame) {
	text := strings.TrimSpace(p.text.String())
	if p.sect && p.sectOn {
		lr.explicitBreak()
	}
	if text == "" {
		if lr.sink() == nil && lr.boxes == 0 {
			lr.blank++
		}
		return
	}
	lr.emit(text, p)
}

func (lr *lineReader) endRow(r *frame) {
	cells := r.cells
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	if c := lr.sink(); c != nil && c.kind == fCell {
		var parts []string
		for _, s := range cells {
			if s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			c.parts = append(c.parts, strings.Join(parts, " "))
		}
		return
	}
	text := strings.TrimRight(strings.Join(cells, "\t"), " \t\r\n\u3000")
	if strings.TrimSpace(text) == "" {
		return
	}
	lr.emit(text, r)
}

// emit routes a finished paragraph or row to its cell, text box or the
// output.
func (lr *lineReader) emit(text string, f *frame) {
	switch s := lr.sink(); {
	case s == nil || s.kind == fBoxLines:
		at := f.page
		if !f.hasPage {
			at = lr.cur
		}
		lr.lines = append(lr.lines, lineAt{xmlLine: xmlLine{Text: text, Ph: lr.ph(), Blank: lr.blank}, at: at})
		lr.blank = 0
	default:
		s.parts = append(s.parts, text)
	}
}
