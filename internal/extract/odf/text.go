package odf

import (
	"encoding/xml"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// textDoc collects a text document by page (see the package comment).
type textDoc struct {
	pages     wordpage.Pages
	page      int
	anyText   bool // a line was kept: a break before it makes a new page
	sinceText bool // a line was kept since the last break
	explicit  bool // the last break was explicit
	footnotes []string
	endnotes  []string
}

func (t *textDoc) explicitBreak() {
	if t.anyText {
		t.page++
		t.explicit, t.sinceText = true, false
	}
}

// softBreak counts a page break LibreOffice laid out, unless it is the
// explicit break just counted.
func (t *textDoc) softBreak() {
	if !t.anyText || t.explicit && !t.sinceText {
		return
	}
	t.page++
	t.explicit, t.sinceText = false, false
}

func (t *textDoc) line(page int, s string) {
	if s = strings.TrimSpace(s); s == "" {
		return
	}
	t.pages.At(page).Body = append(t.pages.At(page).Body, s)
	t.anyText, t.sinceText = true, true
}

// hooks returns the hooks of content on the given page.
func (t *textDoc) hooks(page int) *hooks {
	return &hooks{
		note: func(class string, lines []string) {
			if class == "endnote" {
				t.endnotes = append(t.endnotes, lines...)
			} else {
				t.footnotes = append(t.footnotes, lines...)
			}
		},
		comment: func(lines []string) {
			if s := joinSpace(lines); s != "" {
				t.pages.At(page).Comments = append(t.pages.At(page).Comments, s)
			}
		},
		shape: func(lines []string) {
			if s := joinSpace(lines); s != "" {
				t.pages.At(page).Shapes = append(t.pages.At(page).Shapes, s)
			}
		},
		softBreak: t.softBreak,
	}
}

// textBody reads office:text.
func (w *walker) textBody(d *ooxml.Decoder) error {
	if w.text == nil {
		w.text = &textDoc{pages: wordpage.Pages{}, page: 1}
	}
	return w.textBlocks(d)
}

// textBlocks reads body-level content up to the end of the element just
// started: paragraphs, headings, lists, sections, indexes, tables.
func (w *walker) textBlocks(d *ooxml.Decoder) error {
	t := w.text
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if _, end := tok.(xml.EndElement); end {
				return nil
			}
			continue
		}
		switch {
		case skipped(se.Name):
			err = d.Skip()
		case se.Name.Space == nsText && (se.Name.Local == "p" || se.Name.Local == "h"):
			before, after := w.breaks("paragraph", attr(se, nsText, "style-name"))
			if before {
				t.explicitBreak()
			}
			page := t.page
			var s string
			s, err = w.inline(d, " ", t.hooks(page))
			t.line(page, s)
			if after {
				t.explicitBreak()
			}
		case is(se.Name, nsTable, "table"):
			before, after := w.breaks("table", attr(se, nsTable, "style-name"))
			if before {
				t.explicitBreak()
			}
			err = w.textTable(d)
			if after {
				t.explicitBreak()
			}
		case is(se.Name, nsText, "soft-page-break"):
			t.softBreak()
			err = d.Skip()
		case se.Name.Space == nsDraw && se.Name.Local != "a":
			var lines []string
			lines, err = w.paras(d, " ", nil)
			t.hooks(t.page).shape(lines)
		case isAnnotation(se.Name):
			var lines []string
			lines, err = w.paras(d, " ", nil)
			t.hooks(t.page).comment(lines)
		default:
			err = w.textBlocks(d) // lists, list items, sections, index bodies
		}
		if err != nil {
			return err
		}
	}
}

// textTable reads a body table: each row on the page where it starts.
func (w *walker) textTable(d *ooxml.Decoder) error {
	t := w.text
	h := &hooks{softBreak: t.softBreak}
	var rowPage int
	h.note = func(c string, l []string) { t.hooks(rowPage).note(c, l) }
	h.comment = func(l []string) { t.hooks(rowPage).comment(l) }
	h.shape = func(l []string) { t.hooks(rowPage).shape(l) }
	return w.tableRowsAt(d, h, func() { rowPage = t.page }, func(row string) { t.line(rowPage, row) })
}

// tableRowsAt is tableRows with start called before each row.
func (w *walker) tableRowsAt(d *ooxml.Decoder, h *hooks, start func(), emit func(string)) error {
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
			case is(t.Name, nsTable, "table-row"):
				start()
				row, err := w.tableRow(d, h)
				if err != nil {
					return err
				}
				emit(row)
			case t.Name.Space == nsTable && (t.Name.Local == "table-header-rows" || t.Name.Local == "table-rows" || t.Name.Local == "table-row-group"):
				if err := w.tableRowsAt(d, h, start, emit); err != nil {
					return err
				}
			case is(t.Name, nsText, "soft-page-break"):
				if h != nil && h.softBreak != nil {
					h.softBreak()
				}
				if err := d.Skip(); err != nil {
					return err
				}
			default:
				if err := d.Skip(); err != nil {
					return err
				}
			}
		}
	}
}

// places appends the pages, the headers and footers of every master page
// (headers first, duplicates dropped) and the notes.
func (t *textDoc) places(w *walker, res *extract.Result) {
	t.pages.AddPlaces(res)
	var hf []string
	seen := map[string]bool{}
	for _, kind := range []string{"header", "footer"} {
		for _, name := range w.order {
			m := w.masters[name]
			for _, el := range []string{kind, kind + "-left", kind + "-first"} {
				sec := m.hf[el]
				if sec == nil {
					continue
				}
				for _, lines := range sec {
					for _, l := range splitLines(lines) {
						if !seen[l] {
							seen[l] = true
							hf = append(hf, l)
						}
					}
				}
			}
		}
	}
	extract.AddPlace(res, extract.PlaceHeaderFooter, hf)
	extract.AddPlace(res, wordpage.Footnotes, append(t.footnotes, t.endnotes...))
}

// splitLines splits lines at line breaks and drops the empty ones, TABs
// read as spaces.
func splitLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		for _, s := range strings.Split(l, "\n") {
			if s = strings.TrimSpace(strings.ReplaceAll(s, "\t", " ")); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
