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
	return ODFChartContent(rc, lim.XMLDepth)
}

// ODFChartContent reads content.xml of a chart package.
func ODFChartContent(r io.Reader, depth int) (string, error) {
	d := ooxml.NewDecoder(r, depth)
	var c odfChart
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
			c.names = append(c.names, t.Name)
			c.start(t)
		case xml.CharData:
			if c.para != nil && c.para.Len() < 1<<16 {
				c.para.Write(t)
			}
		case xml.EndElement:
			c.end(t.Name)
			c.names = c.names[:len(c.names)-1]
		}
	}
	return c.text(), nil
}

// odfChart is what ODFChartContent gathers from a chart's content.xml.
type odfChart struct {
	titles, axisTitles, labels []string
	rows                       [][]string // the chart's local table
	cells                      int
	names                      []xml.Name       // the open elements
	para                       *strings.Builder // open text:p of a title or cell
	cellText                   []string         // paragraphs of the open cell
	cellRepeat, rowRepeat      int
	inLocalTable               bool
}

// parent returns the k-th element above the open one (k = 1: its parent).
func (c *odfChart) parent(k int) xml.Name {
	if len(c.names) > k {
		return c.names[len(c.names)-1-k]
	}
	return xml.Name{}
}

// odfRepeat returns the table attribute name of se (a repeat count), at
// most max, 1 when absent.
func odfRepeat(se xml.StartElement, name string, max int) int {
	for _, a := range se.Attr {
		if a.Name.Space == nsODFTable && a.Name.Local == name {
			if n, err := strconv.Atoi(a.Value); err == nil && n > 1 {
				return min(n, max)
			}
		}
	}
	return 1
}

func isODFCell(n xml.Name) bool {
	return n.Space == nsODFTable && (n.Local == "table-cell" || n.Local == "covered-table-cell")
}

func (c *odfChart) start(t xml.StartElement) {
	switch {
	case t.Name.Space == nsODFText && t.Name.Local == "p":
		c.para = &strings.Builder{}
	case t.Name.Space == nsODFChart && t.Name.Local == "series":
		for _, a := range t.Attr {
			if a.Name.Space == nsODFChart && a.Name.Local == "label-cell-address" {
				c.labels = append(c.labels, a.Value)
			}
		}
	case t.Name.Space == nsODFTable && t.Name.Local == "table":
		c.inLocalTable = true
	case c.inLocalTable && t.Name.Space == nsODFTable && t.Name.Local == "table-row":
		c.rowRepeat = odfRepeat(t, "number-rows-repeated", 64)
		c.rows = append(c.rows, nil)
	case c.inLocalTable && isODFCell(t.Name):
		c.cellRepeat = odfRepeat(t, "number-columns-repeated", 1024)
		c.cellText = nil
	}
}

func (c *odfChart) end(n xml.Name) {
	switch {
	case n.Space == nsODFText && n.Local == "p" && c.para != nil:
		text := strings.TrimSpace(ooxml.SpaceControls(c.para.String()))
		c.para = nil
		owner, grand := c.parent(1), c.parent(2)
		switch {
		case owner.Space == nsODFChart && owner.Local == "title" && grand.Local == "chart":
			c.titles = append(c.titles, text)
		case owner.Space == nsODFChart && owner.Local == "title" && grand.Local == "axis":
			c.axisTitles = append(c.axisTitles, text)
		case isODFCell(owner):
			c.cellText = append(c.cellText, text)
		}
	case c.inLocalTable && isODFCell(n) && len(c.rows) > 0:
		for k := 0; k < c.cellRepeat && c.cells < odfMaxCells; k++ {
			c.rows[len(c.rows)-1] = append(c.rows[len(c.rows)-1], strings.Join(c.cellText, " "))
			c.cells++
		}
	case c.inLocalTable && n.Space == nsODFTable && n.Local == "table-row" && len(c.rows) > 0:
		last := c.rows[len(c.rows)-1]
		for k := 1; k < c.rowRepeat && c.cells < odfMaxCells; k++ {
			c.rows = append(c.rows, last)
			c.cells += len(last)
		}
	case n.Space == nsODFTable && n.Local == "table":
		c.inLocalTable = false
	}
}

// text is the chart's titles, its series' labels (cells of the local
// table) and its axis titles, each once.
func (c *odfChart) text() string {
	values := append([]string{}, c.titles...)
	for _, a := range c.labels {
		if row, col, ok := ODFCellAddress(a); ok && row < len(c.rows) && col < len(c.rows[row]) {
			values = append(values, c.rows[row][col])
		}
	}
	values = append(values, c.axisTitles...)
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return strings.Join(out, " ")
}

// ODFCellAddress parses "local-table.$B$1" (or "$B$1") into a 0-based row
// and column.
func ODFCellAddress(a string) (row, col int, ok bool) {
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
