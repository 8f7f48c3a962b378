package pptx

import (
	"encoding/xml"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// pptxComments reads one comments part of a slide (reference/
// extraction.md §8.1), one line per comment:
//   - legacy ppt/comments/commentN.xml: the p:text of each p:cm;
//   - modern ppt/comments/modernComment_*.xml: the text body (txBody) of
//     each cm, then the text bodies of its replies (reply), whatever the
//     order of the elements in the part; paragraphs joined by spaces.
//
// Author names are not read. TAB, CR and LF become spaces; empty comments
// are dropped.
func pptxComments(p *ooxml.Pkg, part string) ([]string, error) {
	var (
		out     []string
		names   []xml.Name
		inText  bool
		legacy  strings.Builder
		cm      string   // modern: the open comment's own text
		replies []string // modern: its replies
	)
	add := func(s string) {
		if s = strings.TrimSpace(ooxml.SpaceControls(s)); s != "" {
			out = append(out, s)
		}
	}
	err := p.EachToken(part, func(d *ooxml.Decoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			n := t.Name
			if ooxml.IsMC(n) && n.Local == "Fallback" {
				return d.Skip()
			}
			parent := xml.Name{}
			if len(names) > 0 {
				parent = names[len(names)-1]
			}
			switch {
			case ooxml.IsP(n) && n.Local == "text" && ooxml.IsP(parent) && parent.Local == "cm":
				inText = true
				legacy.Reset()
			case !ooxml.IsP(n) && n.Local == "cm":
				cm, replies = "", nil
			case !ooxml.IsP(n) && n.Local == "txBody" && (parent.Local == "cm" || parent.Local == "reply") && !ooxml.IsP(parent):
				x, err := ooxml.ReadElementLines(d, t, ooxml.LineOptions{Depth: p.Lim.XMLDepth})
				if err != nil {
					return err
				}
				text := strings.Join(x.Texts(), " ")
				if parent.Local == "cm" {
					cm = text
				} else {
					replies = append(replies, text)
				}
				return nil // ooxml.ReadElementLines consumed the end element
			}
			names = append(names, n)
		case xml.EndElement:
			n := t.Name
			switch {
			case inText && ooxml.IsP(n) && n.Local == "text":
				add(legacy.String())
				inText = false
			case !ooxml.IsP(n) && n.Local == "cm":
				add(cm)
				for _, r := range replies {
					add(r)
				}
				cm, replies = "", nil
			}
			names = names[:len(names)-1]
		case xml.CharData:
			if inText {
				legacy.Write(t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
