package rtf

import (
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// What the parse gives: paragraphs, table rows and notes written to their
// sinks, and the sinks turned into places.

// endPara ends a paragraph: a line of its own, or part of a table cell.
func (p *parser) endPara(s *sink) {
	t := strings.TrimSpace(s.para.String())
	page := s.paraPage
	s.para.Reset()
	if p.g.intbl && s == p.g.sink {
		if t != "" {
			s.cellBuf = append(s.cellBuf, t)
		}
		return
	}
	if len(s.cells) > 0 || len(s.cellBuf) > 0 {
		// A paragraph outside the table after cells whose row never
		// ended (\cell without \row): the row is kept before it
		// (issue 33).
		p.endRow(s)
	}
	p.emit(s, page, t)
}

func (p *parser) emit(s *sink, page int, t string) {
	if t == "" {
		return
	}
	if s == p.body {
		p.anyText = true
	} else {
		page = s.page
	}
	s.lines = append(s.lines, pageLine{page: page, text: t})
}

func (p *parser) endCell(s *sink) {
	if t := strings.TrimSpace(s.para.String()); t != "" {
		s.cellBuf = append(s.cellBuf, t)
	}
	s.para.Reset()
	s.cells = append(s.cells, strings.ReplaceAll(strings.Join(s.cellBuf, " "), "\t", " "))
	s.cellBuf = nil
}

func (p *parser) endRow(s *sink) {
	if len(s.cellBuf) > 0 || s.para.Len() > 0 {
		p.endCell(s)
	}
	n := len(s.cells)
	for n > 0 && s.cells[n-1] == "" {
		n--
	}
	if n > 0 {
		p.emit(s, s.rowPage, strings.Join(s.cells[:n], "\t"))
	}
	s.cells = nil
}

// result builds the places.
func (p *parser) result() *extract.Result {
	res := &extract.Result{}
	pages := wordpage.Pages{}
	for _, l := range p.body.lines {
		pages.At(l.page).Body = append(pages.At(l.page).Body, l.text)
	}
	for _, o := range p.objects {
		var parts []string
		for _, l := range o.lines {
			parts = append(parts, l.text)
		}
		t := strings.TrimSpace(strings.Join(parts, " "))
		if t == "" {
			continue
		}
		if o.kind == destComment {
			pages.At(o.page).Comments = append(pages.At(o.page).Comments, t)
		} else {
			pages.At(o.page).Shapes = append(pages.At(o.page).Shapes, t)
		}
	}
	pages.AddPlaces(res)
	var hf []string
	seen := map[string]bool{}
	for _, s := range append(append([]*sink{}, p.headers...), p.footers...) {
		for _, l := range s.lines {
			if !seen[l.text] {
				seen[l.text] = true
				hf = append(hf, l.text)
			}
		}
	}
	extract.AddPlace(res, extract.PlaceHeaderFooter, hf)
	var notes []string
	for _, end := range []bool{false, true} {
		for _, s := range p.notes {
			if s.endnote == end {
				for _, l := range s.lines {
					notes = append(notes, l.text)
				}
			}
		}
	}
	extract.AddPlace(res, wordpage.Footnotes, notes)
	return res
}
