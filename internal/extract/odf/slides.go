package odf

import (
	"encoding/xml"
	"fmt"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// deck collects the slides of a presentation.
type deck struct {
	slides  []slide
	decls   map[string]string // presentation:footer-decl name → text
	footers []string          // in slide order, duplicates dropped
	seen    map[string]bool
}

type slide struct {
	hidden                        bool
	body, notes, shapes, comments []string
}

// placeholderSkipped are the slide placeholders whose text is not slide
// text: footer, date and slide number (the footer is ヘッダー・フッター).
var placeholderSkipped = map[string]bool{"footer": true, "date-time": true, "page-number": true, "header": true}

// slidesBody reads office:presentation (or office:drawing: pages as
// slides).
func (w *walker) slidesBody(d *ooxml.Decoder) error {
	if w.deck == nil {
		w.deck = &deck{decls: map[string]string{}, seen: map[string]bool{}}
	}
	k := w.deck
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
			case is(t.Name, nsPres, "footer-decl"):
				s, err := w.inline(d, " ", &hooks{})
				if err != nil {
					return err
				}
				k.decls[attr(t, nsPres, "name")] = s
			case is(t.Name, nsDraw, "page"):
				if err := w.slide(d, t); err != nil {
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

func (w *walker) slide(d *ooxml.Decoder, se xml.StartElement) error {
	k := w.deck
	st := w.styleOf("drawing-page", attr(se, nsDraw, "style-name"))
	s := slide{hidden: st != nil && st.hidden}
	w.charts = &s.shapes
	defer func() { w.charts = nil }()
	h := &hooks{comment: func(l []string) {
		if t := joinSpace(l); t != "" {
			s.comments = append(s.comments, t)
		}
	}}
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			k.slides = append(k.slides, s)
			var foot []string
			if f := k.decls[attr(se, nsPres, "use-footer-name")]; f != "" {
				foot = append(foot, f)
			}
			if m := w.masters[attr(se, nsDraw, "master-page-name")]; m != nil {
				foot = append(foot, m.footer...)
			}
			for _, l := range splitLines(foot) {
				if !k.seen[l] {
					k.seen[l] = true
					k.footers = append(k.footers, l)
				}
			}
			return nil
		case xml.StartElement:
			switch {
			case is(t.Name, nsPres, "notes"):
				w.charts = nil
				lines, err := w.paras(d, " ", nil)
				w.charts = &s.shapes
				if err != nil {
					return err
				}
				s.notes = append(s.notes, lines...)
			case placeholderSkipped[attr(t, nsPres, "class")]:
				if err := d.Skip(); err != nil {
					return err
				}
			default:
				lines, err := w.block(d, t, " ", h)
				if err != nil {
					return err
				}
				s.body = append(s.body, lines...)
			}
		}
	}
}

// places appends each slide's body, notes and comments, then the footers.
func (k *deck) places(res *extract.Result) {
	for i, s := range k.slides {
		base := extract.SlideName(i+1, s.hidden)
		extract.AddPlace(res, base, s.body)
		extract.AddPlace(res, fmt.Sprintf("スライド%03d_ノート", i+1), s.notes)
		extract.AddPlace(res, base+extract.PlaceShape, s.shapes)
		extract.AddPlace(res, base+extract.PlaceComment, s.comments)
	}
	extract.AddPlace(res, extract.PlaceHeaderFooter, k.footers)
}
