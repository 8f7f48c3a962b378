package xls

import (
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// Chart text of .xls workbooks ([MS-XLS] 2.2.8 chart substream), for the
// same [図形] line the .xlsx reader writes from chart XML (internal/ooxml/objects.go
// ooxml.readChartText: titles, axis titles and series names, de-duplicated and
// joined with spaces). A chart is a substream (BOF type 0x0020): a chart
// sheet of its own, or embedded in a worksheet right after the OBJ record
// (type 5) of its drawing object. Its records nest in BEGIN/END pairs; a
// TEXT block holds a literal text in SERIESTEXT and says what it labels in
// OBJECTLINK (1 chart title, 2 value axis, 3 category axis, 7 series axis,
// 4 data label); a SERIESTEXT directly in a SERIES block is the series
// name. A text or series name that references a cell (BRAI with a
// ptgRef3d formula) is resolved, once every sheet is read, to the display
// value of that cell when it sits on a visible worksheet, as LibreOffice
// and Excel show it.

// Chart record types.
const (
	RChartSeries     = 0x1003
	RChartSeriesText = 0x100D
	RChartText       = 0x1025
	RChartObjectLink = 0x1027
	RChartBegin      = 0x1033
	RChartEnd        = 0x1034
	RChartBRAI       = 0x1051
)

// cellRef is a cell referenced by a chart formula: an EXTERNSHEET
// index and a 0-based row and column.
type cellRef struct{ ixti, row, col int }

// chartText is a literal text or a cell reference.
type chartText struct {
	lit string
	ref *cellRef
}

const dtChart = 0x0020

// objChart is the OBJ type of an embedded chart.
const objChart = 0x05

// chart collects the texts of one chart substream.
type chart struct {
	stack  []uint16  // kinds of the open BEGIN blocks
	last   uint16    // type of the record before the next BEGIN
	text   chartText // SERIESTEXT or BRAI reference of the open TEXT block
	link   int       // OBJECTLINK of the open TEXT block
	title  []chartText
	series []chartText
	labels []chartText
	axes   [8][]chartText // by OBJECTLINK.wLinkObj
}

// record handles one record of a chart substream.
func (c *chart) record(b *book, typ uint16, data []byte) {
	switch typ {
	case RChartBegin:
		if len(c.stack) < 64 {
			c.stack = append(c.stack, c.last)
		}
		if c.last == RChartText {
			c.text, c.link = chartText{}, 0
		}
		return
	case RChartEnd:
		if n := len(c.stack); n > 0 {
			if c.stack[n-1] == RChartText {
				c.endText()
			}
			c.stack = c.stack[:n-1]
		}
	case RChartSeriesText:
		s := c.seriesText(b, data)
		switch c.inside() {
		case RChartText:
			c.text.lit = s
		case RChartSeries:
			if s != "" {
				c.series = append(c.series, chartText{lit: s})
			}
		}
	case RChartBRAI:
		ref := BRAIRef(b, data)
		if ref == nil {
			break
		}
		switch c.inside() {
		case RChartText:
			c.text.ref = ref
		case RChartSeries:
			c.series = append(c.series, chartText{ref: ref})
		}
	case RChartObjectLink:
		if len(data) >= 2 && c.inside() == RChartText {
			c.link = biff.Le16(data, 0)
		}
	}
	c.last = typ
}

// inside returns the innermost open TEXT or SERIES block (0 for none).
func (c *chart) inside() uint16 {
	for i := len(c.stack) - 1; i >= 0; i-- {
		if k := c.stack[i]; k == RChartText || k == RChartSeries {
			return k
		}
	}
	return 0
}

func (c *chart) endText() {
	if c.text.lit == "" && c.text.ref == nil {
		return
	}
	switch {
	case c.link == 1:
		c.title = append(c.title, c.text)
	case c.link == 4:
		c.labels = append(c.labels, c.text)
	case c.link > 0 && c.link < len(c.axes):
		c.axes[c.link] = append(c.axes[c.link], c.text)
	}
	c.text = chartText{}
}

// BRAIRef reads the cell a BRAI record's formula names ([MS-XLS]
// 2.4.29: id, rt, flags, ifmt, then cce and the tokens): only the series
// or title name (id 0) given by reference (rt 2) to one cell (ptgRef3d).
func BRAIRef(b *book, data []byte) *cellRef {
	if b.biff5 || len(data) < 8+7 || data[0] != 0 || data[1] != 2 {
		return nil
	}
	cce := biff.Le16(data, 6)
	if cce < 7 || len(data) < 8+cce {
		return nil
	}
	switch data[8] {
	case 0x3A, 0x5A, 0x7A: // ptgRef3d
		return &cellRef{ixti: biff.Le16(data, 9), row: biff.Le16(data, 11), col: biff.Le16(data, 13) & 0x3FFF}
	}
	return nil
}

// seriesText reads a SERIESTEXT record: id (2), then a
// ShortXLUnicodeString (BIFF5: a byte count and code-page bytes).
func (c *chart) seriesText(b *book, data []byte) string {
	if len(data) < 3 {
		return ""
	}
	if b.biff5 {
		return b.biff5String(data, 2, 1)
	}
	s, _, _ := ShortUnicodeString(data, 2)
	return s
}

// line is the chart's text as one line: title, series names, data labels,
// then the category, value and series axis titles, each text once; resolve
// gives the display value of a referenced cell.
func (c *chart) line(resolve func(cellRef) string) string {
	var out []string
	seen := map[string]bool{}
	add := func(list []chartText) {
		for _, t := range list {
			s := t.lit
			if s == "" && t.ref != nil {
				s = resolve(*t.ref)
			}
			s = strings.Join(strings.Fields(s), " ")
			if s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	add(c.title)
	add(c.series)
	add(c.labels)
	add(c.axes[3])
	add(c.axes[2])
	add(c.axes[7])
	return strings.Join(out, " ")
}

// readChart reads a chart substream (its BOF just read) up to its EOF;
// hf, when not nil, receives the chart sheet's header and footer.
func (b *book) readChart(hf *sheet.Sheet) (*chart, error) {
	var c chart
	depth := 1
	for n := 0; depth > 0; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return nil, err
			}
		}
		typ, data, _, err := b.rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch typ {
		case biff.RBOF:
			depth++
			continue
		case biff.REOF:
			depth--
			continue
		case biff.RHeader, biff.RFooter:
			if hf != nil && depth == 1 {
				if err := b.sheetRecord(&sheetState{s: hf}, typ, data); err != nil {
					return nil, err
				}
			}
			continue
		}
		if depth == 1 {
			c.record(b, typ, data)
		}
	}
	return &c, nil
}

// resolveRef is the display value of a cell a chart references, from the
// worksheets read (EXTERNSHEET → a SUPBOOK of this workbook → a sheet);
// "" when it is elsewhere.
func (b *book) resolveRef(sheets []*sheet.Sheet, r cellRef) string {
	if r.ixti >= len(b.xti) {
		return ""
	}
	x := b.xti[r.ixti]
	if x[0] < 0 || x[0] >= len(b.supSelf) || !b.supSelf[x[0]] || x[1] < 0 || x[1] >= len(sheets) || sheets[x[1]] == nil {
		return ""
	}
	for _, c := range sheets[x[1]].Rows[r.row+1] {
		if c.Col == r.col+1 {
			return unfield(c.Text)
		}
	}
	return ""
}

// unfield undoes sheet.CellField.
func unfield(f string) string {
	if len(f) < 2 || f[0] != '"' || f[len(f)-1] != '"' {
		return f
	}
	f = strings.ReplaceAll(f[1:len(f)-1], `""`, `"`)
	return strings.ReplaceAll(f, sheet.LS, "\n")
}

// resolveCharts turns the charts of every sheet into their text lines.
func (b *book) resolveCharts(sheets []*sheet.Sheet) error {
	resolve := func(r cellRef) string { return b.resolveRef(sheets, r) }
	for _, s := range sheets {
		if s == nil {
			continue
		}
		for i := range s.Shapes {
			o := &s.Shapes[i]
			c, _ := o.Chart.(*chart)
			if c == nil {
				continue
			}
			o.Text = c.line(resolve)
			o.Chart = nil
			if err := b.budget.Add(len(o.Text)); err != nil {
				return err
			}
		}
	}
	return nil
}
