package odf

import (
	"context"
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// walker streams the parts of one document: styles and master pages
// first (styles.xml, or the head of a flat file), then the body, whose
// kind decides the places.
type walker struct {
	ctx     context.Context
	tokens  int
	styles  map[string]*style // "<family>:<name>"
	masters map[string]*master
	order   []string // master page names in file order

	text  *textDoc
	book  *book
	deck  *deck
	found bool // an office:body was read

	pkg *ooxml.Pkg // the package, for embedded charts; nil for a flat file
	// hiddenSheets reads hidden tables as <sheet>[非表示]
	// (extract.Options.HiddenSheets, issue 31).
	hiddenSheets bool
	log          []string
	charts       *[]string // where charts go instead of their frame's lines (slides)
}

// style is what the readers need of one style:style.
type style struct {
	parent      string
	breakBefore string // fo:break-before, "" when not set
	breakAfter  string
	master      string // style:master-page-name
	hidden      bool   // table:display="false" / presentation:visibility="hidden"
}

// master is one style:master-page: its headers and footers by element
// name (header, header-left, header-first, footer, …), each as left,
// centre and right sections of lines, and the literal text of footer
// frames on presentation masters.
type master struct {
	hf     map[string]*[3][]string
	footer []string
}

func newWalker(ctx context.Context) *walker {
	return &walker{ctx: ctx, styles: map[string]*style{}, masters: map[string]*master{}}
}

// token returns the next token with character data copied, checking the
// context every few thousand tokens.
func (w *walker) token(d *ooxml.Decoder) (xml.Token, error) {
	w.tokens++
	if w.tokens&4095 == 0 {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
	}
	tok, err := d.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	if cd, ok := tok.(xml.CharData); ok {
		return xml.CharData(append([]byte(nil), cd...)), nil
	}
	return tok, nil
}

// document walks one XML document (a part or a flat file).
func (w *walker) document(d *ooxml.Decoder) error {
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch {
		case se.Name.Space == nsOffice && (se.Name.Local == "document" || se.Name.Local == "document-content" || se.Name.Local == "document-styles" || se.Name.Local == "body"):
			// containers: descend
		case is(se.Name, nsOffice, "styles"), is(se.Name, nsOffice, "automatic-styles"):
			if err := w.styleBlock(d); err != nil {
				return err
			}
		case is(se.Name, nsOffice, "master-styles"):
			if err := w.masterStyles(d); err != nil {
				return err
			}
		case is(se.Name, nsOffice, "text"):
			w.found = true
			if err := w.textBody(d); err != nil {
				return err
			}
		case is(se.Name, nsOffice, "spreadsheet"):
			w.found = true
			if err := w.sheetBody(d); err != nil {
				return err
			}
		case is(se.Name, nsOffice, "presentation"), is(se.Name, nsOffice, "drawing"):
			w.found = true
			if err := w.slidesBody(d); err != nil {
				return err
			}
		default:
			if err := d.Skip(); err != nil {
				return err
			}
		}
	}
}

// result returns the places of the body read.
func (w *walker) result() (*extract.Result, error) {
	res := &extract.Result{Log: w.log}
	switch {
	case w.text != nil:
		w.text.places(w, res)
	case w.book != nil:
		if err := w.book.places(w, res); err != nil {
			return nil, err
		}
	case w.deck != nil:
		w.deck.places(res)
	case !w.found:
		return nil, ErrNoContent
	}
	return res, nil
}

// styleBlock reads office:styles or office:automatic-styles.
func (w *walker) styleBlock(d *ooxml.Decoder) error {
	var cur *style
	depth := 1
	for depth > 0 {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 2 && is(t.Name, nsStyle, "style"):
				cur = &style{parent: attr(t, nsStyle, "parent-style-name"), master: attr(t, nsStyle, "master-page-name")}
				w.styles[attr(t, nsStyle, "family")+":"+attr(t, nsStyle, "name")] = cur
			case depth == 3 && cur != nil:
				if v := attr(t, nsFo, "break-before"); v != "" {
					cur.breakBefore = v
				}
				if v := attr(t, nsFo, "break-after"); v != "" {
					cur.breakAfter = v
				}
				if attr(t, nsTable, "display") == "false" || attr(t, nsPres, "visibility") == "hidden" {
					cur.hidden = true
				}
			}
		case xml.EndElement:
			depth--
			if depth == 1 {
				cur = nil
			}
		}
	}
	return nil
}

// styleOf returns the style of a family, or nil.
func (w *walker) styleOf(family, name string) *style {
	if name == "" {
		return nil
	}
	return w.styles[family+":"+name]
}

// breaks reports whether a paragraph or table style, or a style it
// inherits from, puts a page break before or after it, and whether the
// style starts a master page.
func (w *walker) breaks(family, name string) (before, after bool) {
	s := w.styleOf(family, name)
	if s != nil && s.master != "" {
		before = true
	}
	var b, a string
	for i := 0; s != nil && i < 32 && (b == "" || a == ""); i++ {
		if b == "" {
			b = s.breakBefore
		}
		if a == "" {
			a = s.breakAfter
		}
		s = w.styleOf(family, s.parent)
	}
	return before || b == "page", a == "page"
}

// masterStyles reads office:master-styles.
func (w *walker) masterStyles(d *ooxml.Decoder) error {
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if !is(t.Name, nsStyle, "master-page") {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			name := attr(t, nsStyle, "name")
			m := &master{hf: map[string]*[3][]string{}}
			if _, dup := w.masters[name]; !dup {
				w.order = append(w.order, name)
			}
			w.masters[name] = m
			if err := w.masterPage(d, m); err != nil {
				return err
			}
		}
	}
}

func (w *walker) masterPage(d *ooxml.Decoder, m *master) error {
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			switch {
			case t.Name.Space == nsStyle && (strings.HasPrefix(t.Name.Local, "header") || strings.HasPrefix(t.Name.Local, "footer")):
				if attr(t, nsStyle, "display") == "false" {
					if err := d.Skip(); err != nil {
						return err
					}
					continue
				}
				sec, err := w.headerFooter(d)
				if err != nil {
					return err
				}
				m.hf[t.Name.Local] = sec
			case t.Name.Space == nsDraw && attr(t, nsPres, "class") == "footer":
				lines, err := w.paras(d, "\n", nil)
				if err != nil {
					return err
				}
				m.footer = append(m.footer, lines...)
			default:
				if err := d.Skip(); err != nil {
					return err
				}
			}
		}
	}
}

// headerFooter reads a style:header (or footer, -left, -first): its
// regions, or its paragraphs as the centre.
func (w *walker) headerFooter(d *ooxml.Decoder) (*[3][]string, error) {
	var sec [3][]string
	for {
		tok, err := w.token(d)
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return &sec, nil
		case xml.StartElement:
			i := -1
			switch {
			case is(t.Name, nsStyle, "region-left"):
				i = 0
			case is(t.Name, nsStyle, "region-center"):
				i = 1
			case is(t.Name, nsStyle, "region-right"):
				i = 2
			}
			if i >= 0 {
				lines, err := w.paras(d, "\n", nil)
				if err != nil {
					return nil, err
				}
				sec[i] = append(sec[i], lines...)
				continue
			}
			lines, err := w.block(d, t, "\n", nil)
			if err != nil {
				return nil, err
			}
			sec[1] = append(sec[1], lines...)
		}
	}
}

// hooks receive what a paragraph anchors; a nil hook drops notes and
// comments and keeps shapes as lines of the container.
type hooks struct {
	note      func(class string, lines []string)
	comment   func(lines []string)
	shape     func(lines []string)
	softBreak func()
}

// skipped are elements whose text is never read: metadata of comments,
// alternative text, tracked deletions, index templates, forms, embedded
// objects and note citations.
func skipped(n xml.Name) bool {
	switch n.Space {
	case nsDc, nsMeta, nsSvg:
		return true
	case nsText:
		switch n.Local {
		case "tracked-changes", "note-citation", "ruby-text", "sequence-decls", "variable-decls", "user-field-decls", "dde-connection-decls":
			return true
		}
		return strings.HasSuffix(n.Local, "-source")
	case nsOffice:
		return n.Local == "forms" || n.Local == "event-listeners" || n.Local == "annotation-end"
	case nsDraw:
		return n.Local == "object-ole"
	case nsPres:
		return true // fields (footer, date-time) and notes outside a slide
	}
	return false
}

// paras reads the content of the element just started up to its end and
// returns its paragraphs and table rows as lines.
func (w *walker) paras(d *ooxml.Decoder, br string, h *hooks) ([]string, error) {
	var out []string
	for {
		tok, err := w.token(d)
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return out, nil
		case xml.StartElement:
			lines, err := w.block(d, t, br, h)
			if err != nil {
				return nil, err
			}
			out = append(out, lines...)
		}
	}
}

// block reads one element of a container: a paragraph, a table, or any
// other element whose paragraphs it collects.
func (w *walker) block(d *ooxml.Decoder, se xml.StartElement, br string, h *hooks) ([]string, error) {
	switch {
	case skipped(se.Name):
		return nil, d.Skip()
	case isAnnotation(se.Name):
		lines, err := w.paras(d, br, nil)
		if err == nil && h != nil && h.comment != nil {
			h.comment(lines)
		}
		return nil, err
	case se.Name.Space == nsText && (se.Name.Local == "p" || se.Name.Local == "h"):
		var extra []string
		ph := h
		if h == nil || h.shape == nil {
			ph = &hooks{shape: func(l []string) { extra = append(extra, l...) }}
			if h != nil {
				ph.note, ph.comment, ph.softBreak = h.note, h.comment, h.softBreak
			}
		}
		s, err := w.inline(d, br, ph)
		if err != nil {
			return nil, err
		}
		return append([]string{s}, extra...), nil
	case is(se.Name, nsTable, "table"):
		var out []string
		err := w.tableRows(d, h, func(row string) { out = append(out, row) })
		return out, err
	case is(se.Name, nsText, "soft-page-break"):
		if h != nil && h.softBreak != nil {
			h.softBreak()
		}
		return nil, d.Skip()
	case is(se.Name, nsDraw, "object"):
		lines, err := w.object(d, se)
		if w.charts != nil {
			if s := joinSpace(lines); s != "" {
				*w.charts = append(*w.charts, s)
			}
			return nil, err
		}
		return lines, err
	case se.Name.Space == nsDraw && se.Name.Local != "a" && h != nil && h.shape != nil:
		lines, err := w.paras(d, br, nil)
		if err == nil {
			h.shape(lines)
		}
		return nil, err
	}
	return w.paras(d, br, h)
}

// inline reads a paragraph's content up to its end as one line: spaces
// for text:s and text:tab, br for text:line-break, notes, comments and
// shapes to their hooks.
func (w *walker) inline(d *ooxml.Decoder, br string, h *hooks) (string, error) {
	var b strings.Builder
	depth := 1
	for depth > 0 {
		tok, err := w.token(d)
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.WriteString(strings.Map(func(r rune) rune {
				if r == '\t' || r == '\r' || r == '\n' {
					return ' '
				}
				return r
			}, string(t)))
		case xml.EndElement:
			depth--
		case xml.StartElement:
			switch {
			case is(t.Name, nsText, "s"):
				n, _ := strconv.Atoi(attr(t, nsText, "c"))
				b.WriteString(strings.Repeat(" ", min(max(n, 1), 64)))
				err = d.Skip()
			case is(t.Name, nsText, "tab"):
				b.WriteByte(' ')
				err = d.Skip()
			case is(t.Name, nsText, "line-break"):
				b.WriteString(br)
				err = d.Skip()
			case is(t.Name, nsText, "soft-page-break"):
				if h.softBreak != nil {
					h.softBreak()
				}
				err = d.Skip()
			case is(t.Name, nsText, "note"):
				err = w.note(d, t, h)
			case isAnnotation(t.Name):
				var lines []string
				lines, err = w.paras(d, br, nil)
				if err == nil && h.comment != nil {
					h.comment(lines)
				}
			case skipped(t.Name):
				err = d.Skip()
			case t.Name.Space == nsDraw && t.Name.Local != "a":
				var lines []string
				lines, err = w.paras(d, br, nil)
				if err == nil && h.shape != nil {
					h.shape(lines)
				}
			default:
				depth++ // spans, links, fields: their text is the paragraph's
			}
			if err != nil {
				return "", err
			}
		}
	}
	return strings.TrimSpace(b.String()), nil
}

// note reads a text:note: its body's lines go to the note hook.
func (w *walker) note(d *ooxml.Decoder, se xml.StartElement, h *hooks) error {
	class := attr(se, nsText, "note-class")
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if !is(t.Name, nsText, "note-body") {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			lines, err := w.paras(d, " ", nil)
			if err != nil {
				return err
			}
			if h.note != nil {
				h.note(class, lines)
			}
		}
	}
}

// maxRepeat bounds table:number-columns-repeated of empty cells in
// document tables (spreadsheet sheets have their own bounds).
const maxRepeat = 1024

// tableRows reads a table in a document or on a slide: each row is one
// line of its cells joined by TAB, trailing empty cells removed; a cell's
// paragraphs are joined by spaces, a nested table is flattened into its
// cell.
func (w *walker) tableRows(d *ooxml.Decoder, h *hooks, emit func(string)) error {
	return w.tableRowsAt(d, h, func() {}, emit)
}

func (w *walker) tableRow(d *ooxml.Decoder, h *hooks) (string, error) {
	var cells []string
	for {
		tok, err := w.token(d)
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			n := len(cells)
			for n > 0 && cells[n-1] == "" {
				n--
			}
			return strings.Join(cells[:n], "\t"), nil
		case xml.StartElement:
			if t.Name.Space != nsTable || (t.Name.Local != "table-cell" && t.Name.Local != "covered-table-cell") {
				if err := d.Skip(); err != nil {
					return "", err
				}
				continue
			}
			lines, err := w.paras(d, " ", h)
			if err != nil {
				return "", err
			}
			text := strings.Map(func(r rune) rune {
				if r == '\t' {
					return ' '
				}
				return r
			}, joinSpace(lines))
			cells = append(cells, text)
			if n, _ := strconv.Atoi(attr(t, nsTable, "number-columns-repeated")); n > 1 && text == "" {
				for i := 1; i < min(n, maxRepeat); i++ {
					cells = append(cells, "")
				}
			}
		}
	}
}
