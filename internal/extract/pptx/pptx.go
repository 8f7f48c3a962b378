package pptx

import (
	"context"
	"encoding/xml"
	"fmt"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// PowerPoint packages (.pptx .pptm), reference/extraction.md §8.1–§8.2
// (readPptxUnits). Slides come in display order: p:sldIdLst of
// ppt/presentation.xml through its relationships; the slide number N
// advances for every p:sldId, even one whose relationship or part is
// missing. Places per slide, in this order:
//
//	スライドNNN          every paragraph and table row of the slide (shapes,
//	                     groups, tables, text boxes, placeholders) except
//	                     placeholders of type sldNum, dt, hdr, ftr, sldImg
//	スライドNNN_ノート   the notes slide (relationship type …/notesSlide),
//	                     same placeholders skipped
//	スライドNNN[図形]    one line per SmartArt (r:dm) and chart (c:chart r:id)
//	スライドNNN[コメント] legacy comments (p:cm/p:text) and modern comments
//	                     (p188:cm text, then its replies), one line each
//	スライドNNN[埋め込みK] embedded Office files (p:oleObj, §9)
//
// A hidden slide (root show="0" or "false") is named スライドNNN（非表示）,
// its objects スライドNNN（非表示）[図形] and so on; its notes stay
// スライドNNN_ノート. After all slides: ヘッダー・フッター, the text of the
// slides' ftr placeholders, duplicates removed.
//
// Failures: no ppt/presentation.xml → MsgNoPresentation; not a ZIP →
// Corrupt with ooxml.ErrNotZip in the chain; broken ZIP or XML of the
// presentation, slides, notes or comments → Corrupt; size limits →
// MsgTooLarge. Broken charts, SmartArt and embeds are logged and skipped.

func init() {
	extract.RegisterFormat(extract.Format{
		Name: "pptx", Extensions: []string{".pptx", ".pptm"}, Read: Read, Whole: true,
		Embedded: []extract.Embedded{{Holds: ooxml.PresentationPart, Read: embeddedText}},
	})
}

// embeddedText returns the slide text of a presentation package embedded
// in another file (an *ooxml.Pkg).
func embeddedText(_ context.Context, container any) ([]string, error) {
	return readPresentationText(container.(*ooxml.Pkg))
}

// skipPh are the placeholder types whose text is not slide text.
var skipPh = map[string]bool{"sldNum": true, "dt": true, "hdr": true, "ftr": true, "sldImg": true}

func Read(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	p, err := ooxml.OpenSource(path, opt)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	defer p.Close()
	res, err = readPptxPackage(ctx, p)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	return res, nil
}

// slide is one entry of p:sldIdLst: its 1-based position and its part
// ("" when the relationship is missing).
type slide struct {
	num  int
	part string
}

// slides lists the slides of a presentation in display order.
func slides(p *ooxml.Pkg) ([]slide, error) {
	if !p.Has(ooxml.PresentationPart) {
		return nil, &extract.Error{Msg: extract.MsgNoPresentation, Cause: fmt.Errorf("%s missing", ooxml.PresentationPart)}
	}
	rels, err := p.RelsOf(ooxml.PresentationPart)
	if err != nil {
		return nil, err
	}
	var out []slide
	inList := false
	err = p.EachToken(ooxml.PresentationPart, func(_ *ooxml.Decoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if !ooxml.IsP(t.Name) {
				return nil
			}
			switch t.Name.Local {
			case "sldIdLst":
				inList = true
			case "sldId":
				if !inList {
					return nil
				}
				s := slide{num: len(out) + 1}
				if r, ok := rels[ooxml.RelAttr(t, "id")]; ok && p.Has(r.Target) {
					s.part = r.Target
				}
				out = append(out, s)
			}
		case xml.EndElement:
			if ooxml.IsP(t.Name) && t.Name.Local == "sldIdLst" {
				inList = false
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// hidden reports whether a slide's root element hides it.
func hidden(root xml.StartElement) bool {
	for _, a := range root.Attr {
		if a.Name.Local == "show" && a.Name.Space == "" {
			return a.Value == "0" || a.Value == "false"
		}
	}
	return false
}

func readPptxPackage(ctx context.Context, p *ooxml.Pkg) (*extract.Result, error) {
	if ooxml.Fault != nil {
		ooxml.Fault()
	}
	slides, err := slides(p)
	if err != nil {
		return nil, err
	}
	res := &extract.Result{}
	var footers []string
	seenFooter := map[string]bool{}
	er := embed.Reader{Ctx: ctx, P: p}
	for _, s := range slides {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.part == "" {
			continue
		}
		x, err := ooxml.PartLines(p, s.part, ooxml.LineOptions{Objects: true})
		if err != nil {
			return nil, err
		}
		rels, err := p.RelsOf(s.part)
		if err != nil {
			return nil, err
		}
		base := extract.SlideName(s.num, hidden(x.Root))
		var body []string
		for _, l := range x.Lines {
			if l.Ph == "ftr" && !seenFooter[l.Text] {
				seenFooter[l.Text] = true
				footers = append(footers, l.Text)
			}
			if !skipPh[l.Ph] {
				body = append(body, l.Text)
			}
		}
		extract.AddPlace(res, base, body)

		notes, err := slideNotes(p, rels)
		if err != nil {
			return nil, err
		}
		extract.AddPlace(res, extract.NotesName(s.num), notes)

		shapes, embeds, err := slideObjects(p, s.part, rels, x.Objects, res)
		if err != nil {
			return nil, err
		}
		extract.AddPlace(res, base+extract.PlaceShape, shapes)

		comments, err := slideComments(p, rels)
		if err != nil {
			return nil, err
		}
		extract.AddPlace(res, base+extract.PlaceComment, comments)

		for _, o := range embeds {
			pl, err := er.Read(rels, o.ID, base)
			if err != nil {
				return nil, err
			}
			if pl != nil {
				res.Places = append(res.Places, *pl)
			}
		}
	}
	res.Log = append(res.Log, er.Log...)
	extract.AddPlace(res, extract.PlaceHeaderFooter, footers)
	return res, nil
}

// slideNotes returns the lines of a slide's notes page (its first
// notesSlide relationship), placeholders of skipPh left out.
func slideNotes(p *ooxml.Pkg, rels map[string]ooxml.Rel) ([]string, error) {
	var notes []string
	for _, r := range ooxml.SortedRels(rels) {
		if ooxml.RelTypeIs(r.Type, "notesSlide") && p.Has(r.Target) {
			n, err := ooxml.PartLines(p, r.Target, ooxml.LineOptions{})
			if err != nil {
				return nil, err
			}
			for _, l := range n.Lines {
				if !skipPh[l.Ph] {
					notes = append(notes, l.Text)
				}
			}
			break
		}
	}
	return notes, nil
}

// slideObjects returns the text of a slide's charts and SmartArt (their
// log lines go to res) and its embedded objects, read after the slide's
// other places.
func slideObjects(p *ooxml.Pkg, part string, rels map[string]ooxml.Rel, objects []ooxml.Object, res *extract.Result) (shapes []string, embeds []ooxml.Object, err error) {
	for _, o := range objects {
		switch o.Kind {
		case ooxml.ObjChart, ooxml.ObjSmartArt:
			text, logLine, err := ooxml.ObjectText(p, part, rels, o)
			if err != nil {
				return nil, nil, err
			}
			if logLine != "" {
				res.Log = append(res.Log, logLine)
			}
			if text != "" {
				shapes = append(shapes, text)
			}
		case ooxml.ObjEmbed:
			embeds = append(embeds, o)
		}
	}
	return shapes, embeds, nil
}

// slideComments returns the comments of a slide, of every comments
// relationship in order.
func slideComments(p *ooxml.Pkg, rels map[string]ooxml.Rel) ([]string, error) {
	var comments []string
	for _, r := range ooxml.SortedRels(rels) {
		if ooxml.RelTypeIs(r.Type, "comments") && p.Has(r.Target) {
			c, err := pptxComments(p, r.Target)
			if err != nil {
				return nil, err
			}
			comments = append(comments, c...)
		}
	}
	return comments, nil
}

// readPresentationText returns the slide text of an embedded
// presentation: the slides' lines in display order, placeholders of the
// skipped types left out; no notes, objects or comments.
func readPresentationText(p *ooxml.Pkg) ([]string, error) {
	slides, err := slides(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range slides {
		if s.part == "" {
			continue
		}
		x, err := ooxml.PartLines(p, s.part, ooxml.LineOptions{})
		if err != nil {
			return nil, err
		}
		for _, l := range x.Lines {
			if !skipPh[l.Ph] {
				out = append(out, l.Text)
			}
		}
	}
	return out, nil
}
