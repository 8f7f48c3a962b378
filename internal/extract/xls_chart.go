package extract

import (
	"io"
	"strings"
)

// Chart text of .xls workbooks ([MS-XLS] 2.2.8 chart substream), for the
// same [図形] line the .xlsx reader writes from chart XML (ooxml_objects.go
// readChartText: titles, axis titles and series names, de-duplicated and
// joined with spaces). A chart is a substream (BOF type 0x0020): a chart
// sheet of its own, or embedded in a worksheet right after the OBJ record
// (type 5) of its drawing object. Its records nest in BEGIN/END pairs; a
// TEXT block holds a literal text in SERIESTEXT and says what it labels in
// OBJECTLINK (1 chart title, 2 value axis, 3 category axis, 7 series axis,
// 4 data label); a SERIESTEXT directly in a SERIES block is the series
// name. Texts that reference cells carry no cached text in BIFF and are
// not read.

// Chart record types.
const (
	xlsRChartSeries     = 0x1003
	xlsRChartSeriesText = 0x100D
	xlsRChartText       = 0x1025
	xlsRChartObjectLink = 0x1027
	xlsRChartBegin      = 0x1033
	xlsRChartEnd        = 0x1034
)

const xlsDtChart = 0x0020

// xlsObjChart is the OBJ type of an embedded chart.
const xlsObjChart = 0x05

// xlsChart collects the texts of one chart substream.
type xlsChart struct {
	stack  []uint16 // kinds of the open BEGIN blocks
	last   uint16   // type of the record before the next BEGIN
	text   string   // SERIESTEXT of the open TEXT block
	link   int      // OBJECTLINK of the open TEXT block
	title  []string
	series []string
	labels []string
	axes   [8][]string // by OBJECTLINK.wLinkObj
}

// record handles one record of a chart substream.
func (c *xlsChart) record(b *xlsBook, typ uint16, data []byte) {
	switch typ {
	case xlsRChartBegin:
		if len(c.stack) < 64 {
			c.stack = append(c.stack, c.last)
		}
		if c.last == xlsRChartText {
			c.text, c.link = "", 0
		}
		return
	case xlsRChartEnd:
		if n := len(c.stack); n > 0 {
			if c.stack[n-1] == xlsRChartText {
				c.endText()
			}
			c.stack = c.stack[:n-1]
		}
	case xlsRChartSeriesText:
		s := c.seriesText(b, data)
		switch c.inside() {
		case xlsRChartText:
			c.text = s
		case xlsRChartSeries:
			if s != "" {
				c.series = append(c.series, s)
			}
		}
	case xlsRChartObjectLink:
		if len(data) >= 2 && c.inside() == xlsRChartText {
			c.link = le16(data, 0)
		}
	}
	c.last = typ
}

// inside returns the innermost open TEXT or SERIES block (0 for none).
func (c *xlsChart) inside() uint16 {
	for i := len(c.stack) - 1; i >= 0; i-- {
		if k := c.stack[i]; k == xlsRChartText || k == xlsRChartSeries {
			return k
		}
	}
	return 0
}

func (c *xlsChart) endText() {
	if c.text == "" {
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
	c.text = ""
}

// seriesText reads a SERIESTEXT record: id (2), then a
// ShortXLUnicodeString (BIFF5: a byte count and code-page bytes).
func (c *xlsChart) seriesText(b *xlsBook, data []byte) string {
	if len(data) < 3 {
		return ""
	}
	if b.biff5 {
		n := min(int(data[2]), len(data)-3)
		return b.cp.decode(data[3 : 3+n])
	}
	s, _, _ := xlsShortUnicodeString(data, 2)
	return s
}

// line is the chart's text as one line: title, series names, data labels,
// then the category, value and series axis titles, each text once.
func (c *xlsChart) line() string {
	var out []string
	seen := map[string]bool{}
	add := func(list []string) {
		for _, s := range list {
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

// readChart reads a chart substream (its BOF just read) up to its EOF and
// returns its text line; hf, when not nil, receives the chart sheet's
// header and footer.
func (b *xlsBook) readChart(hf *xlsSheet) (string, error) {
	var c xlsChart
	depth := 1
	for n := 0; depth > 0; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return "", err
			}
		}
		typ, data, _, err := b.rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch typ {
		case xlsRBOF:
			depth++
			continue
		case xlsREOF:
			depth--
			continue
		case xlsRHeader, xlsRFooter:
			if hf != nil && depth == 1 {
				if err := b.sheetRecord(&xlsSheetState{s: hf}, typ, data); err != nil {
					return "", err
				}
			}
			continue
		}
		if depth == 1 {
			c.record(b, typ, data)
		}
	}
	return c.line(), nil
}
