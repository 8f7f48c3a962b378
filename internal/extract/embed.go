package extract

import (
	"bytes"
	"context"
	"errors"
)

// Embedded Office objects (reference/extraction.md §9,
// readEmbeddedObjectLines). Sources are the Word body (w:objectEmbed,
// o:OLEObject Type="Embed") and PowerPoint slides (p:oleObj); the
// relationship type must end with "/package". No Office is used: the part
// must start with "PK", and the part it contains decides the format —
// xl/workbook.xml (workbook: visible sheets, text cells only, one line per
// row, cells joined by TAB), word/document.xml (document: body paragraphs
// and table rows), ppt/presentation.xml (presentation: slide text). Any
// other content is skipped silently and takes no number. Embeds inside
// embeds are not read.
//
// Numbering runs per file in reference order; a part referenced twice is
// read once; an embed that cannot be read (part over the part cap, broken
// inner ZIP or XML) takes its number, leaves a gap and is logged
// ("    埋め込みを読み取れませんでした: <部品名>"). The inner package shares the
// outer total-size budget; breaking it fails the whole file.

// embedReader numbers and reads the embeds of one file.
type embedReader struct {
	ctx  context.Context
	p    *pkg
	n    int
	seen map[string]bool
	log  []string
}

type embedFormat uint8

const (
	embedNone embedFormat = iota
	embedWorkbook
	embedDocument
	embedPresentation
)

// read returns the place "<base>[埋め込みN]" of the embed with relationship
// id in rels, or nil when it yields nothing. The error is non-nil only when
// the whole file must fail (total cap, cancelled context).
func (er *embedReader) read(rels map[string]rel, id, base string) (*Place, error) {
	if err := er.ctx.Err(); err != nil {
		return nil, err
	}
	r, ok := rels[id]
	if !ok || r.Target == "" || !relTypeIs(r.Type, "package") {
		return nil, nil
	}
	if er.seen == nil {
		er.seen = map[string]bool{}
	}
	key := partKey(r.Target)
	if er.seen[key] {
		return nil, nil
	}
	er.seen[key] = true
	lines, format, err := readEmbedded(er.p, r.Target)
	if err != nil {
		if ooxmlTotalCap(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		er.n++
		er.log = append(er.log, "    埋め込みを読み取れませんでした: "+r.Target)
		return nil, nil
	}
	if format == embedNone {
		return nil, nil
	}
	er.n++
	var res Result
	ooxmlAddPlace(&res, base+ooxmlEmbed(er.n), lines)
	if len(res.Places) == 0 {
		return nil, nil
	}
	return &res.Places[0], nil
}

// readEmbedded reads one embedded package part of p.
func readEmbedded(p *pkg, part string) ([]string, embedFormat, error) {
	if !p.has(part) {
		return nil, embedNone, nil
	}
	data, err := p.read(part)
	if err != nil {
		return nil, embedNone, err
	}
	if !bytes.HasPrefix(data, []byte("PK")) {
		return nil, embedNone, nil
	}
	return embeddedPackageLines(data, p.lim, p.budget)
}

// packagePresentationText reads the slide text of an embedded
// presentation package; the .pptx reader sets it.
var packagePresentationText func(p *pkg) ([]string, error)

func registerPackageText(presentation func(p *pkg) ([]string, error)) {
	packagePresentationText = presentation
}

// embeddedPackageLines reads the text of an embedded OOXML package (a
// workbook's text cells, a document's paragraphs, a presentation's slides)
// whose uncompressed parts count against b.
func embeddedPackageLines(data []byte, lim Limits, b *budget) ([]string, embedFormat, error) {
	inner, err := newPackage(bytes.NewReader(data), int64(len(data)), lim, b)
	if err != nil {
		return nil, embedNone, err
	}
	switch {
	case inner.has("xl/workbook.xml"):
		lines, err := readEmbeddedWorkbook(inner)
		return lines, embedWorkbook, err
	case inner.has(docxMain):
		x, err := ooxmlPartLines(inner, docxMain, lineOptions{Boxes: true})
		if err != nil {
			return nil, embedDocument, err
		}
		return x.texts(), embedDocument, nil
	case inner.has(pptxMain):
		lines, err := packagePresentationText(inner)
		return lines, embedPresentation, err
	}
	return nil, embedNone, nil
}
