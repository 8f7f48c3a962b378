package xlsx

import (
	"sort"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// sheetObjects reads the [図形] and [コメント] lines of a sheet part
// through its relationships of type drawing, comments and threadedComment
// (no other relationship is followed, §5.4).
func (b *xlBook) sheetObjects(part string, chart bool) (shapes, comments []string, err error) {
	rels, err := b.p.RelsOf(part)
	if err != nil {
		return nil, nil, err
	}
	var anchors []anchor
	legacy := map[xlRef]string{}
	threaded := map[xlRef]string{}
	var legacyOrder, threadOrder []xlRef
	for _, r := range ooxml.SortedRels(rels) {
		if r.Target == "" {
			continue
		}
		switch {
		case ooxml.RelTypeIs(r.Type, "drawing"):
			a, err := b.readDrawing(r.Target, chart)
			if err != nil {
				return nil, nil, err
			}
			anchors = append(anchors, a...)
		case ooxml.RelTypeIs(r.Type, "comments"):
			if err := b.readComments(r.Target, legacy, &legacyOrder); err != nil {
				return nil, nil, err
			}
		case ooxml.RelTypeIs(r.Type, "threadedComment"):
			if err := b.readThreadedComments(r.Target, threaded, &threadOrder); err != nil {
				return nil, nil, err
			}
		}
	}
	sort.SliceStable(anchors, func(i, j int) bool {
		if anchors[i].ref.row != anchors[j].ref.row {
			return anchors[i].ref.row < anchors[j].ref.row
		}
		return anchors[i].ref.col < anchors[j].ref.col
	})
	for _, a := range anchors {
		shapes = append(shapes, a.ref.String()+"\t"+sheet.ObjectCellText(a.text))
	}
	var refs []xlRef
	texts := map[xlRef]string{}
	for _, ref := range threadOrder {
		refs = append(refs, ref)
		texts[ref] = threaded[ref]
	}
	for _, ref := range legacyOrder {
		if _, ok := texts[ref]; !ok {
			refs = append(refs, ref)
			texts[ref] = legacy[ref]
		}
	}
	sort.SliceStable(refs, func(i, j int) bool {
		if refs[i].row != refs[j].row {
			return refs[i].row < refs[j].row
		}
		return refs[i].col < refs[j].col
	})
	for _, ref := range refs {
		if t := sheet.ObjectCellText(texts[ref]); t != "" {
			comments = append(comments, ref.String()+"\t"+t)
		}
	}
	return shapes, comments, nil
}

// xlRef is a cell position (1-based).
type xlRef struct{ col, row int }

func (r xlRef) String() string { return sheet.CellName(r.col, r.row) }

// anchor is one drawing anchor with text.
type anchor struct {
	ref  xlRef
	text string
}

// readDrawing reads xl/drawings/drawingN.xml: every anchor
// (xdr:twoCellAnchor, oneCellAnchor, absoluteAnchor) is one object at its
// xdr:from cell (A1 for absoluteAnchor and on chart sheets), its text the
// text-box paragraphs and then the chart and SmartArt texts of the anchor,
// one per line. Anchors inside mc:Fallback, and later mc:Choice branches,
// are skipped; anchors without text give nothing.
func (b *xlBook) readDrawing(part string, chart bool) ([]anchor, error) {
	var out []anchor
	var rels map[string]ooxml.Rel
	// choiceSeen[depth] is set once an mc:AlternateContent open at that
	// depth has had its first mc:Choice.
	choiceSeen := map[int]bool{}
	err := b.p.EachScanned(part, func(d *xmlscan.Scanner) error {
		switch d.Kind {
		case xmlscan.End:
			if ooxml.IsMCSpace(d.Space()) && string(d.Name) == "AlternateContent" {
				delete(choiceSeen, d.Depth()+1)
			}
		case xmlscan.Start:
			mc := ooxml.IsMCSpace(d.Space())
			local := string(d.Name)
			switch {
			case mc && local == "Fallback":
				return d.Skip()
			case mc && local == "Choice":
				if choiceSeen[d.Depth()-1] {
					if err := d.Skip(); err != nil {
						return err
					}
				}
				choiceSeen[d.Depth()-1] = true
				return nil
			case local != "twoCellAnchor" && local != "oneCellAnchor" && local != "absoluteAnchor":
				return nil
			}
			a, err := b.readAnchor(d, local, part, &rels, chart)
			if err != nil {
				return err
			}
			if a.text != "" {
				out = append(out, a)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readAnchor reads the anchor element just started.
func (b *xlBook) readAnchor(d *xmlscan.Scanner, kind, part string, rels *map[string]ooxml.Rel, chart bool) (anchor, error) {
	a := anchor{ref: xlRef{col: 1, row: 1}}
	var lines []string
	var objs []ooxml.Object
	err := d.EachInElement(func() error {
		if d.Kind != xmlscan.Start {
			return nil
		}
		switch string(d.Name) {
		case "from":
			col, row, err := anchorFrom(d)
			if err != nil {
				return err
			}
			if kind != "absoluteAnchor" && !chart {
				a.ref = xlRef{col: col + 1, row: row + 1}
			}
		case "to", "pos", "ext", "clientData":
			return d.Skip()
		default:
			x, err := ooxml.ScanElementLines(d, ooxml.LineOptions{Depth: b.p.Lim.XMLDepth, Objects: true})
			if err != nil {
				return err
			}
			lines = append(lines, x.Texts()...)
			objs = append(objs, x.Objects...)
		}
		return nil
	})
	if err != nil {
		return a, err
	}
	for _, o := range objs {
		if o.Kind != ooxml.ObjChart && o.Kind != ooxml.ObjSmartArt {
			if o.Kind == ooxml.ObjTextBox && o.Text != "" {
				lines = append(lines, o.Text)
			}
			continue
		}
		if *rels == nil {
			m, err := b.p.RelsOf(part)
			if err != nil {
				return a, err
			}
			*rels = m
		}
		text, logLine, err := ooxml.ObjectText(b.p, part, *rels, o)
		if err != nil {
			return a, err
		}
		if logLine != "" {
			b.log = append(b.log, logLine)
		}
		if text != "" {
			lines = append(lines, text)
		}
	}
	a.text = strings.Join(lines, "\n")
	return a, nil
}

// anchorFrom reads xdr:from (xdr:col, xdr:row, 0-based).
func anchorFrom(d *xmlscan.Scanner) (col, row int, err error) {
	err = d.EachInElement(func() error {
		if d.Kind != xmlscan.Start {
			return nil
		}
		name := string(d.Name)
		if name != "col" && name != "row" {
			return d.Skip()
		}
		s, err := d.ElementText()
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			n = 0
		}
		if name == "col" {
			col = min(n, 16383)
		} else {
			row = min(n, 1048575)
		}
		return nil
	})
	return col, row, err
}

// readComments reads a legacy comments part (xl/commentsN.xml): each
// comment's text is every t outside rPh; the author list is not read.
func (b *xlBook) readComments(part string, out map[xlRef]string, order *[]xlRef) error {
	return b.scanPart(part, func(d *xmlscan.Scanner, cur *xlRef) (*xlRef, error) {
		switch string(d.Name) {
		case "authors":
			return cur, d.Skip()
		case "comment":
			return commentRef(d), nil
		case "text":
			text, err := sheet.RichText(d)
			if err != nil || cur == nil {
				return cur, err
			}
			if _, dup := out[*cur]; !dup {
				*order = append(*order, *cur)
				out[*cur] = text
			}
		}
		return cur, nil
	})
}

// readThreadedComments reads xl/threadedComments/*.xml: the comments and
// replies of one cell (threadedComment@ref), in file order, joined by LF.
func (b *xlBook) readThreadedComments(part string, out map[xlRef]string, order *[]xlRef) error {
	return b.scanPart(part, func(d *xmlscan.Scanner, cur *xlRef) (*xlRef, error) {
		switch string(d.Name) {
		case "threadedComment":
			return commentRef(d), nil
		case "mentions", "extLst":
			return cur, d.Skip()
		case "text":
			text, err := d.ElementText()
			if err != nil || cur == nil {
				return cur, err
			}
			if prev, ok := out[*cur]; ok {
				out[*cur] = prev + "\n" + text
			} else {
				*order = append(*order, *cur)
				out[*cur] = text
			}
		}
		return cur, nil
	})
}

// scanPart streams a comments part, calling start for every start element
// with the current comment's cell (nil outside a comment or for a bad
// reference); start returns the new current cell.
func (b *xlBook) scanPart(part string, start func(d *xmlscan.Scanner, cur *xlRef) (*xlRef, error)) error {
	var cur *xlRef
	return b.p.EachScanned(part, func(d *xmlscan.Scanner) error {
		if d.Kind != xmlscan.Start {
			return nil
		}
		var err error
		cur, err = start(d, cur)
		return err
	})
}

// commentRef returns the cell of a comment element's ref attribute (the
// first cell of a range); nil when it is not a cell reference.
func commentRef(d *xmlscan.Scanner) *xlRef {
	ref := string(d.Attr("ref"))
	if col, row, ok := sheet.ParseRef(strings.TrimSpace(ref)); ok {
		return &xlRef{col: col, row: row}
	}
	if col, row, ok := rangeStart(ref); ok {
		return &xlRef{col: col, row: row}
	}
	return nil
}

// rangeStart parses the first cell of a range reference "B3:C4".
func rangeStart(ref string) (col, row int, ok bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(ref), ":")
	return sheet.ParseRef(first)
}
