package extract

import (
	"context"
	"encoding/xml"
	"fmt"
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
// Corrupt with ErrNotZip in the chain; broken ZIP or XML of the
// presentation, slides, notes or comments → Corrupt; size limits →
// MsgTooLarge. Broken charts, SmartArt and embeds are logged and skipped.

func init() {
	register(readPptx, ".pptx", ".pptm")
	registerPackageText(readPresentationText)
}

const pptxMain = "ppt/presentation.xml"

// pptxSkipPh are the placeholder types whose text is not slide text.
var pptxSkipPh = map[string]bool{"sldNum": true, "dt": true, "hdr": true, "ftr": true, "sldImg": true}

func readPptx(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer ooxmlRecover(&res, &err)
	p, err := openPackage(path, opt.limits())
	if err != nil {
		return nil, ooxmlFailure(path, err)
	}
	defer p.Close()
	res, err = readPptxPackage(ctx, p)
	if err != nil {
		return nil, ooxmlFailure(path, err)
	}
	return res, nil
}

// pptxSlide is one entry of p:sldIdLst: its 1-based position and its part
// ("" when the relationship is missing).
type pptxSlide struct {
	num  int
	part string
}

// pptxSlides lists the slides of a presentation in display order.
func pptxSlides(p *pkg) ([]pptxSlide, error) {
	if !p.has(pptxMain) {
		return nil, &Error{Msg: MsgNoPresentation, Cause: fmt.Errorf("%s missing", pptxMain)}
	}
	rels, err := p.relsOf(pptxMain)
	if err != nil {
		return nil, err
	}
	var out []pptxSlide
	inList := false
	err = p.eachToken(pptxMain, func(_ *xmlDecoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if !isP(t.Name) {
				return nil
			}
			switch t.Name.Local {
			case "sldIdLst":
				inList = true
			case "sldId":
				if !inList {
					return nil
				}
				s := pptxSlide{num: len(out) + 1}
				if r, ok := rels[relAttr(t, "id")]; ok && p.has(r.Target) {
					s.part = r.Target
				}
				out = append(out, s)
			}
		case xml.EndElement:
			if isP(t.Name) && t.Name.Local == "sldIdLst" {
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

// pptxHidden reports whether a slide's root element hides it.
func pptxHidden(root xml.StartElement) bool {
	for _, a := range root.Attr {
		if a.Name.Local == "show" && a.Name.Space == "" {
			return a.Value == "0" || a.Value == "false"
		}
	}
	return false
}

func pptxSlideName(n int, hidden bool) string {
	name := fmt.Sprintf("スライド%03d", n)
	if hidden {
		name += "（非表示）"
	}
	return name
}

func readPptxPackage(ctx context.Context, p *pkg) (*Result, error) {
	if ooxmlFault != nil {
		ooxmlFault()
	}
	slides, err := pptxSlides(p)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var footers []string
	seenFooter := map[string]bool{}
	er := embedReader{ctx: ctx, p: p}
	for _, s := range slides {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.part == "" {
			continue
		}
		x, err := ooxmlPartLines(p, s.part, lineOptions{Objects: true})
		if err != nil {
			return nil, err
		}
		rels, err := p.relsOf(s.part)
		if err != nil {
			return nil, err
		}
		base := pptxSlideName(s.num, pptxHidden(x.Root))
		var body []string
		for _, l := range x.Lines {
			if l.Ph == "ftr" && !seenFooter[l.Text] {
				seenFooter[l.Text] = true
				footers = append(footers, l.Text)
			}
			if !pptxSkipPh[l.Ph] {
				body = append(body, l.Text)
			}
		}
		ooxmlAddPlace(res, base, body)

		var notes []string
		for _, r := range ooxmlSortedRels(rels) {
			if relTypeIs(r.Type, "notesSlide") && p.has(r.Target) {
				n, err := ooxmlPartLines(p, r.Target, lineOptions{})
				if err != nil {
					return nil, err
				}
				for _, l := range n.Lines {
					if !pptxSkipPh[l.Ph] {
						notes = append(notes, l.Text)
					}
				}
				break
			}
		}
		ooxmlAddPlace(res, fmt.Sprintf("スライド%03d_ノート", s.num), notes)

		var shapes []string
		var embeds []xmlObject
		for _, o := range x.Objects {
			switch o.Kind {
			case objChart, objSmartArt:
				text, logLine, err := ooxmlObjectText(p, s.part, rels, o)
				if err != nil {
					return nil, err
				}
				if logLine != "" {
					res.Log = append(res.Log, logLine)
				}
				if text != "" {
					shapes = append(shapes, text)
				}
			case objEmbed:
				embeds = append(embeds, o)
			}
		}
		ooxmlAddPlace(res, base+ooxmlShape, shapes)

		var comments []string
		for _, r := range ooxmlSortedRels(rels) {
			if relTypeIs(r.Type, "comments") && p.has(r.Target) {
				c, err := pptxComments(p, r.Target)
				if err != nil {
					return nil, err
				}
				comments = append(comments, c...)
			}
		}
		ooxmlAddPlace(res, base+ooxmlComment, comments)

		for _, o := range embeds {
			pl, err := er.read(rels, o.ID, base)
			if err != nil {
				return nil, err
			}
			if pl != nil {
				res.Places = append(res.Places, *pl)
			}
		}
	}
	res.Log = append(res.Log, er.log...)
	ooxmlAddPlace(res, ooxmlHeaderFooter, footers)
	return res, nil
}

// readPresentationText returns the slide text of an embedded
// presentation: the slides' lines in display order, placeholders of the
// skipped types left out; no notes, objects or comments.
func readPresentationText(p *pkg) ([]string, error) {
	slides, err := pptxSlides(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range slides {
		if s.part == "" {
			continue
		}
		x, err := ooxmlPartLines(p, s.part, lineOptions{})
		if err != nil {
			return nil, err
		}
		for _, l := range x.Lines {
			if !pptxSkipPh[l.Ph] {
				out = append(out, l.Text)
			}
		}
	}
	return out, nil
}
