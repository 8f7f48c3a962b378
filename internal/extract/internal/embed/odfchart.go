package embed

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// Charts that LibreOffice embeds in the .doc and .ppt files it writes: an
// OLE object whose "package_stream" is an OpenDocument chart package
// (mimetype application/vnd.oasis.opendocument.chart). Its text becomes
// one [図形] line, as ooxml.readChartText gives it for a package's chart
// (reference/extraction.md §6): the chart title's paragraphs, the series
// names (chart:series chart:label-cell-address, resolved in the chart's
// own table), then the axis titles, duplicates removed, joined by spaces.
// Categories and values are not read.

const (
	odfMimeChart = "application/vnd.oasis.opendocument.chart"
	nsODFChart   = "urn:oasis:names:tc:opendocument:xmlns:chart:1.0"
	nsODFText    = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	nsODFTable   = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	// odfMaxCells bounds the chart table kept in memory.
	odfMaxCells = 1 << 16
)

var errNotODFChart = errors.New("extract: not an OpenDocument chart")

// odfChartText returns the chart line of an OpenDocument chart package
// ("" when it has no text), or errNotODFChart.
func odfChartText(data []byte, lim extract.Limits) (string, error) {
	p, err := ooxml.NewPackage(strings.NewReader(string(data)), int64(len(data)), lim, &ooxml.Budget{Max: lim.ZipTotalBytes})
	if err != nil {
		return "", err
	}
	if !p.Has("mimetype") || !p.Has("content.xml") {
		return "", errNotODFChart
	}
	mt, err := p.Read("mimetype")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(string(mt)) != odfMimeChart {
		return "", errNotODFChart
	}
	rc, err := p.Open("content.xml")
	if err != nil {
		return "", err
	}
	defer rc.Close()
	return OdfChartContent(rc, lim.XMLDepth)
}

// OdfChartContent reads content.xml of a chart package.
func OdfChartContent(r io.Reader, depth int) (string, error) {
	d := ooxml.NewXMLDecoder(r, depth)
	var (
		titles, axisTitles, labels []string
		rows                       [][]string
		cells                      int
		names                      []xml.Name
		para                       *strings.Builder // open text:p of a title or cell
		cellText                   []string         // paragraphs of the open cell
		cellRepeat, rowRepeat      int
		inLocalTable               bool
	)
	parent := func(k int) xml.Name { // k = 1: the parent of the open element
		if len(names) > k {
			return names[len(names)-1-k]
		}
		return xml.Name{}
	}
	repeat := func(se xml.StartElement, name string, max int) int {
		for _, a := range se.Attr {
			if a.Name.Space == nsODFTable && a.Name.Local == name {
				if n, err := strconv.Atoi(a.Value); err == nil && n > 1 {
					return min(n, max)
				}
			}
		}
		return 1
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("parse content.xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			names = append(names, t.Name)
			switch {
			case t.Name.Space == nsODFText && t.Name.Local == "p":
				para = &strings.Builder{}
			case t.Name.Space == nsODFChart && t.Name.Local == "series":
				for _, a := range t.Attr {
					if a.Name.Space == nsODFChart && a.Name.Local == "label-cell-address" {
						labels = append(labels, a.Value)
					}
				}
			case t.Name.Space == nsODFTable && t.Name.Local == "table":
				inLocalTable = true
			case inLocalTable && t.Name.Space == nsODFTable && t.Name.Local == "table-row":
				rowRepeat = repeat(t, "number-rows-repeated", 64)
				rows = append(rows, nil)
			case inLocalTable && t.Name.Space == nsODFTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
				cellRepeat = repeat(t, "number-columns-repeated", 1024)
				cellText = nil
			}
		case xml.CharData:
			if para != nil && para.Len() < 1<<16 {
				para.Write(t)
			}
		case xml.EndElement:
			n := t.Name
			switch {
			case n.Space == nsODFText && n.Local == "p" && para != nil:
				text := strings.TrimSpace(ooxml.SpaceControls(para.String()))
				para = nil
				owner, grand := parent(1), parent(2)
				switch {
				case owner.Space == nsODFChart && owner.Local == "title" && grand.Local == "chart":
					titles = append(titles, text)
				case owner.Space == nsODFChart && owner.Local == "title" && grand.Local == "axis":
					axisTitles = append(axisTitles, text)
				case owner.Space == nsODFTable && (owner.Local == "table-cell" || owner.Local == "covered-table-cell"):
					cellText = append(cellText, text)
				}
			case inLocalTable && n.Space == nsODFTable && (n.Local == "table-cell" || n.Local == "covered-table-cell") && len(rows) > 0:
				for k := 0; k < cellRepeat && cells < odfMaxCells; k++ {
					rows[len(rows)-1] = append(rows[len(rows)-1], strings.Join(cellText, " "))
					cells++
				}
			case inLocalTable && n.Space == nsODFTable && n.Local == "table-row" && len(rows) > 0:
				last := rows[len(rows)-1]
				for k := 1; k < rowRepeat && cells < odfMaxCells; k++ {
					rows = append(rows, last)
					cells += len(last)
				}
			case n.Space == nsODFTable && n.Local == "table":
				inLocalTable = false
			}
			names = names[:len(names)-1]
		}
	}
	values := append([]string{}, titles...)
	for _, a := range labels {
		if row, col, ok := OdfCellAddress(a); ok && row < len(rows) && col < len(rows[row]) {
			values = append(values, rows[row][col])
		}
	}
	values = append(values, axisTitles...)
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return strings.Join(out, " "), nil
}

// OdfCellAddress parses "local-table.$B$1" (or "$B$1") into a 0-based row
// and column.
func OdfCellAddress(a string) (row, col int, ok bool) {
	if i := strings.LastIndex(a, "."); i >= 0 {
		a = a[i+1:]
	}
	a = strings.ReplaceAll(a, "$", "")
	i := 0
	for i < len(a) && a[i] >= 'A' && a[i] <= 'Z' {
		col = col*26 + int(a[i]-'A'+1)
		i++
		if col > 1<<20 {
			return 0, 0, false
		}
	}
	r, err := strconv.Atoi(a[i:])
	if i == 0 || err != nil || r < 1 {
		return 0, 0, false
	}
	return r - 1, col - 1, true
}
