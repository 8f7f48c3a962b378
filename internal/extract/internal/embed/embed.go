package embed

import (
	"bytes"
	"context"
	"errors"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
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

// Reader numbers and reads the embeds of one file.
type Reader struct {
	Ctx  context.Context
	P    *ooxml.Pkg
	n    int
	seen map[string]bool
	Log  []string
}

type format uint8

const (
	none format = iota
	workbook
	document
	presentation
)

// Read returns the place "<base>[埋め込みN]" of the embed with relationship
// id in rels, or nil when it yields nothing. The error is non-nil only when
// the whole file must fail (total cap, cancelled context).
func (er *Reader) Read(rels map[string]ooxml.Rel, id, base string) (*extract.Place, error) {
	if err := er.Ctx.Err(); err != nil {
		return nil, err
	}
	r, ok := rels[id]
	if !ok || r.Target == "" || !ooxml.RelTypeIs(r.Type, "package") {
		return nil, nil
	}
	if er.seen == nil {
		er.seen = map[string]bool{}
	}
	key := ooxml.PartKey(r.Target)
	if er.seen[key] {
		return nil, nil
	}
	er.seen[key] = true
	lines, format, err := readEmbedded(er.P, r.Target)
	if err != nil {
		if ooxml.TotalCap(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		er.n++
		er.Log = append(er.Log, "    埋め込みを読み取れませんでした: "+r.Target)
		return nil, nil
	}
	if format == none {
		return nil, nil
	}
	er.n++
	var res extract.Result
	extract.AddPlace(&res, base+extract.PlaceEmbed(er.n), lines)
	if len(res.Places) == 0 {
		return nil, nil
	}
	return &res.Places[0], nil
}

// readEmbedded reads one embedded package part of p.
func readEmbedded(p *ooxml.Pkg, part string) ([]string, format, error) {
	if !p.Has(part) {
		return nil, none, nil
	}
	data, err := p.Read(part)
	if err != nil {
		return nil, none, err
	}
	if !bytes.HasPrefix(data, []byte("PK")) {
		return nil, none, nil
	}
	return embeddedPackageLines(data, p.Lim, p.Budget)
}

// embeddedPackageLines reads the text of an embedded OOXML package (a
// workbook's text cells, a document's paragraphs, a presentation's slides)
// whose uncompressed parts count against b.
func embeddedPackageLines(data []byte, lim extract.Limits, b *ooxml.Budget) ([]string, format, error) {
	inner, err := ooxml.NewPackage(bytes.NewReader(data), int64(len(data)), lim, b)
	if err != nil {
		return nil, none, err
	}
	switch {
	case inner.Has("xl/workbook.xml"):
		lines, err := readEmbeddedWorkbook(inner)
		return lines, workbook, err
	case inner.Has(ooxml.DocumentPart):
		x, err := ooxml.PartLines(inner, ooxml.DocumentPart, ooxml.LineOptions{Boxes: true})
		if err != nil {
			return nil, document, err
		}
		return x.Texts(), document, nil
	case inner.Has(ooxml.PresentationPart):
		// Slide order and placeholders are the .pptx reader's, which
		// registers the part (extract.Embedded).
		read := extract.EmbeddedReader(ooxml.PresentationPart)
		if read == nil {
			return nil, none, nil
		}
		lines, err := read(context.Background(), inner)
		return lines, presentation, err
	}
	return nil, none, nil
}
