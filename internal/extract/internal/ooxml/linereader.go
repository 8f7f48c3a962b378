package ooxml

import (
	"bytes"
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
	names []openName
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

// openName is what the line reader keeps of an open element's name: its
// space, and whether it is a run (r) or paragraph properties (pPr), the
// parents that w:tab, w:pageBreakBefore and w:sectPr look for.
type openName struct {
	space space
	local uint8 // nameOther, nameR, namePPr
}

const (
	nameOther uint8 = iota
	nameR
	namePPr
)

func nameOf(t startTag) openName {
	n := openName{space: t.space}
	switch string(t.local) {
	case "r":
		n.local = nameR
	case "pPr":
		n.local = namePPr
	}
	return n
}

func (lr *lineReader) push(t startTag, f *frame) {
	lr.names = append(lr.names, nameOf(t))
	lr.stack = append(lr.stack, f)
	if f != nil && f.kind == fPara {
		lr.paras = append(lr.paras, f)
	}
}

// parentIs reports whether the parent of t is the element local
// (nameR, namePPr) of t's own space.
func (lr *lineReader) parentIs(t startTag, local uint8) bool {
	// t is not pushed yet: its parent is the top of the stack.
	if len(lr.names) == 0 {
		return false
	}
	p := lr.names[len(lr.names)-1]
	return p.local == local && p.space == t.space
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

// addText appends text to the innermost open paragraph, TAB, CR and LF
// as spaces.
func (lr *lineReader) addText(s []byte) {
	p := lr.para()
	if p == nil {
		return
	}
	blank := len(bytes.TrimSpace(s)) == 0
	for len(s) > 0 {
		i := bytes.IndexAny(s, "\t\r\n")
		if i < 0 {
			p.text.Write(s)
			break
		}
		p.text.Write(s[:i])
		p.text.WriteByte(' ')
		s = s[i+1:]
	}
	if blank {
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
