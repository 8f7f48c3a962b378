package ooxml

// The line reader's start elements: what each element of WordprocessingML,
// DrawingML, PresentationML and markup compatibility opens, adds or skips
// (lines.go's comment lists the rules).

// skipper consumes the rest of the element whose start was read last:
// *Decoder and *xmlscan.Scanner.
type skipper interface{ Skip() error }

// text handles character data.
func (lr *lineReader) text(b []byte) {
	if n := len(lr.stack); n > 0 && lr.stack[n-1] != nil && lr.stack[n-1].kind == fText {
		lr.addText(b)
	}
}

// start handles a start element. Elements to skip are consumed through d.
func (lr *lineReader) start(d skipper, t startTag) error {
	var f *frame
	skip := false
	switch sp := t.space; {
	case sp == spMC:
		f, skip = lr.startMC(t)
	case sp.isW():
		f, skip = lr.startW(t)
	case sp.isA():
		switch string(t.local) {
		case "rPr", "endParaRPr":
			return d.Skip()
		case "br":
			lr.addText(oneSpace)
		default:
			f = textFrame(t.local)
		}
	case sp.isP():
		switch string(t.local) {
		case "sp", "graphicFrame", "pic", "cxnSp":
			f = &frame{kind: fShape}
		case "ph":
			if s := lr.shape(); s != nil {
				s.ph = t.attr("type")
			}
		case "oleObj":
			lr.object(ObjEmbed, t.rel("id"))
		}
	case sp.isDgm():
		if string(t.local) == "relIds" {
			lr.object(ObjSmartArt, t.rel("dm"))
		}
	case sp.isC():
		if string(t.local) == "chart" {
			lr.object(ObjChart, t.rel("id"))
		}
	case sp == spO:
		if string(t.local) == "OLEObject" && t.attr("Type") == "Embed" {
			lr.object(ObjEmbed, t.rel("id"))
		}
	}
	if skip {
		return d.Skip()
	}
	lr.push(t, f)
	return nil
}

var (
	oneSpace = []byte(" ")
	hyphen   = []byte("-")
)

// startMC opens a markup-compatibility element: the first Choice of an
// AlternateContent is read, the other choices and the Fallback skipped.
func (lr *lineReader) startMC(t startTag) (f *frame, skip bool) {
	switch string(t.local) {
	case "Fallback":
		return nil, true
	case "Choice":
		if p := lr.top(); p != nil && p.kind == fAlt {
			if p.seen {
				return nil, true
			}
			p.seen = true
		}
	case "AlternateContent":
		f = &frame{kind: fAlt}
	}
	return f, false
}

// startW opens a WordprocessingML element; skip says to pass over it.
func (lr *lineReader) startW(t startTag) (f *frame, skip bool) {
	switch string(t.local) {
	case "moveFrom", "delText", "delInstrText", "instrText", "rPr",
		"pPrChange", "sectPrChange", "rPrChange":
		// (the *Change elements keep the formatting before a tracked
		// change: an old pageBreakBefore or section break is no break)
		return nil, true
	case "txbxContent":
		if lr.opt.Boxes {
			f = &frame{kind: fBox, page: lr.cur, hasPage: true}
		} else {
			f = &frame{kind: fBoxLines}
		}
		lr.boxes++
	case "tab", "ptab":
		if lr.parentIs(t, nameR) {
			lr.addText(oneSpace)
		}
	case "cr":
		lr.addText(oneSpace)
	case "noBreakHyphen":
		lr.addText(hyphen)
	case "br":
		switch t.attr("type") {
		case "page":
			lr.explicitBreak()
		case "column":
		default:
			lr.addText(oneSpace)
		}
	case "lastRenderedPageBreak":
		lr.renderedBreak()
	case "pageBreakBefore":
		if p := lr.para(); p != nil && lr.parentIs(t, namePPr) && !isOff(t.attr("val")) && lr.sawText {
			lr.explicitBreak()
		}
	case "sectPr":
		if p := lr.para(); p != nil && lr.parentIs(t, namePPr) {
			p.sect, p.sectOn = true, true
			f = &frame{kind: fSect}
		}
	case "type":
		if p := lr.top(); p != nil && p.kind == fSect && t.attr("val") == "continuous" {
			if q := lr.para(); q != nil {
				q.sectOn = false
			}
		}
	case "pgSz", "pgMar", "docGrid":
		if lr.opt.Pages && lr.boxes == 0 {
			lr.out.Setup.read(t)
		}
	case "commentReference":
		lr.object(ObjComment, t.attr("id"))
	case "objectEmbed":
		lr.object(ObjEmbed, t.rel("id"))
	default:
		f = textFrame(t.local)
	}
	return f, false
}

// textFrame returns a new frame for the paragraph, table row, table cell
// and text elements, which WordprocessingML (w:) and DrawingML (a:) name
// alike, and nil for any other local name.
func textFrame(local []byte) *frame {
	switch string(local) {
	case "p":
		return &frame{kind: fPara}
	case "tr":
		return &frame{kind: fRow}
	case "tc":
		return &frame{kind: fCell}
	case "t":
		return &frame{kind: fText}
	}
	return nil
}
