package docx

import (
	"encoding/xml"
	"io"
	"strconv"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// Page estimates of a package without w:lastRenderedPageBreak
// (wordpage.Layout.Estimate): the body's page setup (ooxml.PageSetup) and
// the default font size and paragraph spacing of word/styles.xml — the
// w:docDefaults (w:rPrDefault w:sz, w:pPrDefault w:spacing), then the
// default paragraph style (w:style w:type="paragraph" w:default="1"),
// which overrides them.

// estimatePages replaces the explicit page of every body line and object
// by its estimate.
func estimatePages(p *ooxml.Pkg, body *ooxml.Lines) {
	s := body.Setup
	lay := wordpage.Layout{
		PageWidth: s.Width, PageHeight: s.Height,
		Left: s.Left, Right: s.Right, Top: s.Top, Bottom: s.Bottom,
		LinePitch: s.LinePitch,
	}
	readStyleDefaults(p, &lay)
	paras := make([]wordpage.Para, len(body.Lines))
	for i, l := range body.Lines {
		paras[i] = wordpage.Para{Text: l.Text, Page: l.Page, Blank: l.Blank}
	}
	est := lay.Estimate(paras)
	for i := range body.Lines {
		body.Lines[i].Page = est[i]
	}
	for i, o := range body.Objects {
		switch {
		case o.Line < len(est):
			body.Objects[i].Page = est[o.Line]
		case len(est) > 0:
			body.Objects[i].Page = est[len(est)-1]
		}
	}
}

// readStyleDefaults reads the font size and spacing defaults of
// word/styles.xml into lay; a missing or broken part leaves them unset.
func readStyleDefaults(p *ooxml.Pkg, lay *wordpage.Layout) {
	const part = "word/styles.xml"
	if !p.Has(part) {
		return
	}
	rc, err := p.Open(part)
	if err != nil {
		return
	}
	defer rc.Close()
	d := ooxml.NewDecoder(rc, p.Lim.XMLDepth)
	var defaults, style wordpage.Layout
	in := "" // "defaults", "style" (the default paragraph style) or ""
	for {
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if ee, ok := tok.(xml.EndElement); ok && (ee.Name.Local == "docDefaults" || ee.Name.Local == "style") {
				in = ""
			}
			continue
		}
		if !ooxml.IsW(se.Name) {
			continue
		}
		num := func(name string) int {
			v, _ := strconv.Atoi(ooxml.Attr(se, name))
			return v
		}
		target := &defaults
		switch se.Name.Local {
		case "docDefaults":
			in = "defaults"
			continue
		case "style":
			in = ""
			if ooxml.Attr(se, "type") == "paragraph" && ooxml.Attr(se, "default") == "1" {
				in = "style"
			}
			continue
		case "sz":
		case "spacing":
		default:
			continue
		}
		switch in {
		case "":
			continue
		case "style":
			target = &style
		}
		if se.Name.Local == "sz" {
			target.FontSize = num("val")
			continue
		}
		if v := ooxml.Attr(se, "line"); v != "" && (ooxml.Attr(se, "lineRule") == "" || ooxml.Attr(se, "lineRule") == "auto") {
			target.Line = num("line")
		}
		if ooxml.Attr(se, "before") != "" {
			target.Before = num("before")
		}
		if ooxml.Attr(se, "after") != "" {
			target.After = num("after")
		}
	}
	pick := func(a, b int) int {
		if a != 0 {
			return a
		}
		return b
	}
	lay.FontSize = pick(style.FontSize, defaults.FontSize)
	lay.Line = pick(style.Line, defaults.Line)
	lay.Before = pick(style.Before, defaults.Before)
	lay.After = pick(style.After, defaults.After)
}
