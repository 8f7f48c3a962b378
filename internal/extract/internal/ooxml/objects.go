package ooxml

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
)

// Charts and SmartArt (reference/extraction.md §6), shared by the Word,
// PowerPoint and Excel readers.

// readChartText returns the one-line text of a chart part
// (readChartText): every DrawingML a:p (rich titles, axis titles, edited
// data labels), every c:v under a c:tx of a c:title (titles linked to
// cells) or of a c:ser (series names), in XML order, de-duplicated and
// joined with spaces. Categories (c:cat), values (c:val), mc:Fallback and
// run properties are not read.
func readChartText(p *Pkg, part string) (string, error) {
	var (
		names  []xml.Name
		vals   []string
		seen   = map[string]bool{}
		para   *strings.Builder
		inT    bool
		inV    bool
		vText  strings.Builder
		paraNo int // depth of the open a:p
	)
	add := func(s string) {
		s = strings.TrimSpace(SpaceControls(s))
		if s != "" && !seen[s] {
			seen[s] = true
			vals = append(vals, s)
		}
	}
	err := p.EachToken(part, func(d *Decoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			n := t.Name
			switch {
			case IsMC(n) && n.Local == "Fallback", isA(n) && (n.Local == "rPr" || n.Local == "endParaRPr"):
				return d.Skip()
			case isA(n) && n.Local == "p" && para == nil:
				para, paraNo = &strings.Builder{}, len(names)+1
			case isA(n) && n.Local == "t":
				inT = para != nil
			case isA(n) && n.Local == "br" && para != nil:
				para.WriteString(" ")
			case isC(n) && n.Local == "v" && para == nil && seriesOrTitleText(names):
				inV = true
				vText.Reset()
			}
			names = append(names, n)
		case xml.EndElement:
			if len(names) == paraNo && para != nil {
				add(para.String())
				para, paraNo = nil, 0
			}
			if inV && isC(t.Name) && t.Name.Local == "v" {
				add(vText.String())
				inV = false
			}
			inT = false
			names = names[:len(names)-1]
		case xml.CharData:
			switch {
			case inT:
				para.Write(t)
			case inV:
				vText.Write(t)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return strings.Join(vals, " "), nil
}

// seriesOrTitleText reports whether the open elements end inside a c:tx
// whose parent is c:title or c:ser.
func seriesOrTitleText(names []xml.Name) bool {
	for i := len(names) - 1; i > 0; i-- {
		n := names[i]
		if !isC(n) {
			continue
		}
		switch n.Local {
		case "cat", "val", "xVal", "yVal", "bubbleSize":
			return false
		case "tx":
			p := names[i-1]
			return isC(p) && (p.Local == "title" || p.Local == "ser")
		}
	}
	return false
}

// readDiagramText returns the one-line text of a SmartArt data model part
// (readDiagramText): its paragraphs joined with spaces.
func readDiagramText(p *Pkg, part string) (string, error) {
	rc, err := p.Open(part)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	x, err := ReadLines(rc, LineOptions{Depth: p.Lim.XMLDepth})
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", part, err)
	}
	return strings.Join(x.Texts(), " "), nil
}

// ObjectText returns the [図形] line of a chart or SmartArt object, with
// its relationship resolved in rels. An object that cannot be read (missing
// relationship or part, broken XML, a part over the part cap) gives "" and
// a log line naming it; only the total-size cap (and a cancelled context)
// is returned as an error, since it fails the whole file.
//
// source is the part holding the reference; a missing relationship is
// logged as "<source>#<id>".
func ObjectText(p *Pkg, source string, rels map[string]Rel, o Object) (text, logLine string, err error) {
	r, ok := rels[o.ID]
	if !ok || r.Target == "" {
		return "", PartLog(source + "#" + o.ID), nil
	}
	switch o.Kind {
	case ObjChart:
		text, err = readChartText(p, r.Target)
	case ObjSmartArt:
		text, err = readDiagramText(p, r.Target)
	default:
		return "", "", nil
	}
	if err != nil {
		if TotalCap(err) {
			return "", "", err
		}
		return "", PartLog(r.Target), nil
	}
	return text, "", nil
}

// PartLog is the log line for a part that could not be read (§5.6, §6).
func PartLog(part string) string { return "    一部を読み取れませんでした: " + part }

// TotalCap reports whether err broke the per-file total size cap.
func TotalCap(err error) bool {
	var se *SizeError
	return errors.As(err, &se) && se.Kind == "total"
}

// SpaceControls turns TAB, CR, LF and CRLF into one space each.
func SpaceControls(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return controlSpacer.Replace(s)
}

var controlSpacer = strings.NewReplacer("\r\n", " ", "\t", " ", "\r", " ", "\n", " ")
