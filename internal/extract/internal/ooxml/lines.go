package ooxml

import (
	"encoding/xml"
	"errors"
	"io"

	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// This file is the shared OOXML paragraph reader of reference/extraction.md
// §4 (ReadLines), used for Word parts, PowerPoint slides and notes,
// SmartArt data, and Excel drawings. It streams WordprocessingML (w:) and
// DrawingML (a:) alike:
//
//   - a paragraph (w:p, a:p) is one line: its w:t/a:t texts concatenated;
//     w:tab (in a run), w:cr, w:br and a:br become a space, except a break
//     of type "page" or "column", which adds nothing; w:noBreakHyphen
//     becomes "-"; TAB, CR and LF inside text become spaces; the line is
//     trimmed and an empty one disappears;
//   - a table row (w:tr, a:tr) is one line: its cells (w:tc, a:tc) joined by
//     TAB, trailing empty cells removed; the paragraphs of a cell are joined
//     by spaces; a nested table is flattened into its outer cell (its cells
//     joined by spaces);
//   - skipped: mc:Fallback and any mc:Choice after the first of an
//     mc:AlternateContent (duplicates of the first choice), w:moveFrom,
//     w:delText, w:delInstrText, w:instrText, run properties (w:rPr,
//     a:rPr) and the old properties of tracked formatting changes
//     (w:pPrChange, w:sectPrChange, w:rPrChange);
//   - text boxes (w:txbxContent): with LineOptions.Boxes each one leaves the
//     lines and becomes one ObjTextBox (its lines joined by spaces) on the
//     page where it starts; without, its lines stay ordinary lines, emitted
//     before the line of the paragraph (or table row) that anchors it.
//
// With LineOptions.Objects it also collects, in document order and tagged
// with the page they appear on: SmartArt (dgm:relIds r:dm), charts
// (c:chart r:id), comment anchors (w:commentReference w:id) and embeds
// (w:objectEmbed r:id, o:OLEObject r:id with Type="Embed", p:oleObj r:id).
//
// With LineOptions.Pages it counts Word pages as §7.2 says, in both modes at
// once (rendered: w:lastRenderedPageBreak plus explicit breaks; explicit:
// explicit breaks only); at the end the rendered count is used when the
// part had any w:lastRenderedPageBreak. Explicit breaks are w:br
// w:type="page", w:pageBreakBefore (unless 0/false/off, and not before the
// first text of the part) and a w:pPr/w:sectPr whose w:type is not
// "continuous" (after its paragraph). A w:lastRenderedPageBreak that follows
// an explicit break before any non-blank text is that same break. Breaks
// inside text boxes are not counted. A paragraph is on the page current at
// its first non-blank text, a table row on the page of its first text.
// Without Pages every line and object is on page 1.
//
// Each line and object of a PresentationML shape (p:sp, p:graphicFrame,
// p:pic, p:cxnSp) carries the shape's placeholder type (p:ph@type, "" when
// the shape is no placeholder or the ph has no type) so slide readers can
// skip or collect sldNum, dt, hdr, ftr and sldImg placeholders.

// LineOptions choose what ReadLines does beyond paragraphs and rows.
type LineOptions struct {
	Depth   int  // element nesting limit; 0 means DefaultLimits.XMLDepth
	Pages   bool // count Word pages (§7.2)
	Boxes   bool // text boxes become ObjTextBox objects (Word body)
	Objects bool // collect SmartArt, charts, comment anchors and embeds
}

// xmlLine is one paragraph or table row.
type xmlLine struct {
	Text string // trimmed paragraph, or cells joined by TAB (right-trimmed)
	Page int    // 1-based page (always 1 without LineOptions.Pages)
	Ph   string // placeholder type of the enclosing PresentationML shape
	// Blank counts the empty paragraphs of the body right before this
	// line (for page estimates).
	Blank int
}

// objKind is the kind of an Object.
type objKind uint8

const (
	ObjTextBox  objKind = iota + 1 // Text: the box's lines joined by spaces
	ObjSmartArt                    // ID: the r:dm relationship id (data model part)
	ObjChart                       // ID: the c:chart r:id relationship id
	ObjComment                     // ID: the w:commentReference w:id comment id
	ObjEmbed                       // ID: the relationship id of an embedded object
)

// Object is one collected object.
type Object struct {
	Kind objKind
	ID   string
	Text string
	Page int
	Ph   string
	// Line is the index of the line that follows the object (the one of
	// its paragraph, or len(Lines)).
	Line int
}

// xmlLines is what ReadLines returns.
type xmlLines struct {
	Lines   []xmlLine
	Objects []Object
	// Rendered reports that the part had a w:lastRenderedPageBreak (pages
	// were counted in rendered mode).
	Rendered bool
	// Setup is the body's page setup (with LineOptions.Pages).
	Setup PageSetup
	// Root is the part's root element (ReadLines only); PowerPoint
	// reads a slide's show attribute from it.
	Root xml.StartElement
}

// Texts returns the line texts.
func (x *xmlLines) Texts() []string {
	out := make([]string, 0, len(x.Lines))
	for _, l := range x.Lines {
		out = append(out, l.Text)
	}
	return out
}

// ReadLines reads a whole XML part (see the comment at the top of this
// file). Errors: broken XML, a DTD, nesting deeper than opt.Depth, and
// read errors of r (such as *SizeError).
func ReadLines(r io.Reader, opt LineOptions) (*xmlLines, error) {
	d, err := xmlscan.NewScanner(r, opt.Depth)
	if err != nil {
		return nil, err
	}
	d.Namespaces = true
	lr := newLineReader(opt)
	var root xml.StartElement
	for {
		err := d.Next()
		if err == io.EOF {
			if root.Name.Local == "" {
				return nil, errors.New("no root element")
			}
			x := lr.result()
			x.Root = root
			return x, nil
		}
		if err != nil {
			return nil, err
		}
		if d.Kind == xmlscan.Start && root.Name.Local == "" {
			root = scanRoot(d)
		}
		if err := lr.feed(d); err != nil {
			return nil, err
		}
	}
}

// feed hands the token s is at to the line reader.
func (lr *lineReader) feed(s *xmlscan.Scanner) error {
	switch s.Kind {
	case xmlscan.Start:
		return lr.start(s, scanTag(s))
	case xmlscan.End:
		lr.end()
	case xmlscan.Text:
		lr.text(s.Data)
	}
	return nil
}

// ScanElementLines is ReadElementLines for a part walked with xmlscan
// (with Namespaces set): it reads the element whose start s is at, up to
// and including its end element. Excel drawings call it once per anchor
// (xdr:twoCellAnchor …) to get the anchor's text-box paragraphs as Lines
// and its charts and SmartArt as Objects, in XML order.
func ScanElementLines(s *xmlscan.Scanner, opt LineOptions) (*xmlLines, error) {
	lr := newLineReader(opt)
	stop := s.Depth() - 1
	if err := lr.start(s, scanTag(s)); err != nil {
		return nil, err
	}
	for s.Depth() > stop {
		err := s.Next()
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		if err := lr.feed(s); err != nil {
			return nil, err
		}
	}
	return lr.result(), nil
}

// ReadElementLines reads the element whose StartElement d returned last
// (start), up to and including its end element, as ReadLines reads a
// whole part: for parts a caller walks with encoding/xml (Word and
// PowerPoint comments). The caller handles mc:AlternateContent around the
// element.
func ReadElementLines(d *Decoder, start xml.StartElement, opt LineOptions) (*xmlLines, error) {
	lr := newLineReader(opt)
	stop := d.Depth() - 1
	if err := lr.start(d, stdTag(&start)); err != nil {
		return nil, err
	}
	for d.Depth() > stop {
		tok, err := d.Token()
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = lr.start(d, stdTag(&t))
		case xml.EndElement:
			lr.end()
		case xml.CharData:
			lr.text(t)
		}
		if err != nil {
			return nil, err
		}
	}
	return lr.result(), nil
}
