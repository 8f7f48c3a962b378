package odf

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

const (
	nsXlink = "http://www.w3.org/1999/xlink"
	nsChart = "urn:oasis:names:tc:opendocument:xmlns:chart:1.0"
)

// object reads a draw:object: a chart's text (title, subtitle, axis
// titles, series names — what the Office readers take of a chart) as
// lines, from the object's part or, in a flat file, from the document
// inside the element. Other embedded objects give nothing, nor does a
// chart part that cannot be read, which is logged.
func (w *walker) object(d *ooxml.Decoder, se xml.StartElement) ([]string, error) {
	if w.pkg == nil {
		return w.chartText(d, d.Depth())
	}
	if err := d.Skip(); err != nil {
		return nil, err
	}
	href := strings.TrimPrefix(attr(se, nsXlink, "href"), "./")
	if w.pkg == nil || href == "" || strings.Contains(href, ":") {
		return nil, nil
	}
	part := path.Join(href, "content.xml")
	if !w.pkg.Has(part) {
		return nil, nil
	}
	lines, err := w.chartPart(part)
	if err != nil {
		w.log = append(w.log, fmt.Sprintf("    一部を読み取れませんでした: %s", part))
		return nil, nil
	}
	return lines, nil
}

func (w *walker) chartPart(part string) ([]string, error) {
	rc, err := w.pkg.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return w.chartText(newDecoder(rc, w.pkg.Lim.XMLDepth), 0)
}

// chartText reads tokens until the element open at depth ends (depth 0:
// the whole document) and returns the chart text found.
func (w *walker) chartText(d *ooxml.Decoder, depth int) ([]string, error) {
	var titles, series []string
	var inTitle, inHeader, cell int // depths where each began, 0 when outside
	isChart := false
	var text strings.Builder
	for {
		tok, err := w.token(d)
		if err == io.ErrUnexpectedEOF && depth == 0 && d.Depth() == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
		if _, end := tok.(xml.EndElement); end && depth > 0 && d.Depth() < depth {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case is(t.Name, nsChart, "chart"):
				isChart = true
			case t.Name.Space == nsChart && (t.Name.Local == "title" || t.Name.Local == "subtitle") && inTitle == 0:
				inTitle = d.Depth()
				text.Reset()
			case is(t.Name, nsTable, "table-header-rows"):
				inHeader = d.Depth()
			case inHeader > 0 && t.Name.Space == nsTable && t.Name.Local == "table-cell":
				cell++
				text.Reset()
			}
		case xml.CharData:
			if inTitle > 0 || inHeader > 0 {
				text.Write(t)
			}
		case xml.EndElement:
			switch {
			case inTitle > 0 && d.Depth() == inTitle-1:
				inTitle = 0
				if s := strings.TrimSpace(text.String()); s != "" {
					titles = append(titles, s)
				}
			case inHeader > 0 && d.Depth() == inHeader-1:
				inHeader = 0
			case inHeader > 0 && t.Name.Space == nsTable && t.Name.Local == "table-cell":
				// The first header cell is the category column's.
				if s := strings.TrimSpace(text.String()); s != "" && cell > 1 {
					series = append(series, s)
				}
			}
		}
	}
	if !isChart {
		return nil, nil
	}
	return append(titles, series...), nil
}
