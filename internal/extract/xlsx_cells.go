package extract

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// xlSheetData is what one pass over a worksheet part yields: the cell
// lines (line N = row N, §5.3) and the raw header/footer settings (§5.6).
type xlSheetData struct {
	lines []string
	hf    xlHeaderFooter
}

// xlCell is one non-empty displayed cell of a row.
type xlCell struct {
	col  int
	text string // display value, already in field form (xlCellField)
}

// xlSheetReader streams one worksheet.
type xlSheetReader struct {
	ctx      context.Context
	sst      *xlStrings
	styles   *xlStyles
	date1904 bool
	part     string
}

// read streams the worksheet XML: sheetData row by row into lines, and the
// headerFooter element; everything else is skipped.
func (r *xlSheetReader) read(rc io.Reader, depth int) (*xlSheetData, error) {
	d, err := newXlScanner(rc, depth)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", r.part, err)
	}
	out := &xlSheetData{}
	row := 0
	var cells []xlCell
	var line strings.Builder
	for {
		err := d.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", r.part, err)
		}
		if d.kind != xlScanStart {
			continue
		}
		switch {
		case string(d.name) == "row" && d.Depth() == 3:
			n := row + 1
			if k, ok := xlAtoi(d.attr("r")); ok && k >= 1 && k <= 1048576 {
				n = k
			}
			row = n
			if row%1024 == 0 {
				if err := r.ctx.Err(); err != nil {
					return nil, err
				}
			}
			cells, err = r.readRow(d, cells[:0])
			if err != nil {
				return nil, fmt.Errorf("parse %s: row %d: %w", r.part, row, err)
			}
			if len(cells) == 0 {
				continue
			}
			xlJoinRow(&line, cells)
			out.setLine(row, line.String())
		case string(d.name) == "headerFooter":
			if err := out.hf.read(d); err != nil {
				return nil, fmt.Errorf("parse %s: %w", r.part, err)
			}
		case d.Depth() == 2 && string(d.name) != "sheetData":
			// sheetPr, cols, mergeCells, conditionalFormatting …
			if err := d.skip(); err != nil {
				return nil, fmt.Errorf("parse %s: %w", r.part, err)
			}
		}
	}
	out.lines = xlTrimLines(out.lines)
	return out, nil
}

// xlAtoi parses a non-negative decimal number of at most 9 digits.
func xlAtoi(b []byte) (int, bool) {
	b = xlTrimSpace(b)
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func xlTrimSpace(b []byte) []byte {
	for len(b) > 0 && xlIsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && xlIsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// setLine stores row n's line. Rows come in ascending order in files Excel
// writes; a repeated row number keeps the first line.
func (s *xlSheetData) setLine(n int, text string) {
	for len(s.lines) < n-1 {
		s.lines = append(s.lines, "")
	}
	if len(s.lines) == n-1 {
		s.lines = append(s.lines, text)
		return
	}
	if s.lines[n-1] == "" {
		s.lines[n-1] = text
	}
}

// xlJoinRow writes the cells (field k = column k) into b: TABs before
// each cell up to its column, nothing after the last non-empty cell.
func xlJoinRow(b *strings.Builder, cells []xlCell) {
	b.Reset()
	if !sort.SliceIsSorted(cells, func(i, j int) bool { return cells[i].col < cells[j].col }) {
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].col < cells[j].col })
	}
	col := 1
	for i, c := range cells {
		if i > 0 && c.col == cells[i-1].col {
			continue
		}
		for ; col < c.col; col++ {
			b.WriteByte('\t')
		}
		b.WriteString(c.text)
	}
}

// xlTrimLines drops trailing empty lines; a sheet holding only whitespace
// has no lines at all.
func xlTrimLines(lines []string) []string {
	n := len(lines)
	for n > 0 && lines[n-1] == "" {
		n--
	}
	lines = lines[:n]
	for _, l := range lines {
		if strings.TrimFunc(l, unicode.IsSpace) != "" {
			return lines
		}
	}
	return nil
}

// readRow reads the cells of the row element just started and returns the
// non-empty ones in field form.
func (r *xlSheetReader) readRow(d *xlScanner, cells []xlCell) ([]xlCell, error) {
	stop := d.Depth() - 1
	col := 0
	for d.Depth() > stop {
		if err := d.next(); err != nil {
			if err == io.EOF {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if d.kind != xlScanStart {
			continue
		}
		if string(d.name) != "c" {
			if err := d.skip(); err != nil {
				return nil, err
			}
			continue
		}
		col++
		if ref := d.attr("r"); len(ref) > 0 {
			if c, ok := xlParseRefCol(ref); ok {
				col = c
			}
		}
		if col > 16384 {
			if err := d.skip(); err != nil {
				return nil, err
			}
			continue
		}
		text, err := r.readCell(d)
		if err != nil {
			return nil, err
		}
		if text != "" {
			cells = append(cells, xlCell{col: col, text: xlCellField(text)})
		}
	}
	return cells, nil
}

// xlParseRefCol returns the column of an A1 reference.
func xlParseRefCol(ref []byte) (int, bool) {
	col := 0
	i := 0
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a'+1)
		if col > 16384 {
			return 0, false
		}
	}
	if col == 0 || i == len(ref) {
		return 0, false
	}
	return col, true
}

// readCell reads the c element just started and returns its display value.
func (r *xlSheetReader) readCell(d *xlScanner) (string, error) {
	typ := xlCellType(d.attr("t"))
	style := 0
	if n, ok := xlAtoi(d.attr("s")); ok {
		style = n
	}
	if d.pendingEnd {
		return "", d.skip()
	}
	var v, inline string
	hasInline := false
	stop := d.Depth() - 1
	for d.Depth() > stop {
		if err := d.next(); err != nil {
			if err == io.EOF {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if d.kind != xlScanStart {
			continue
		}
		var err error
		switch string(d.name) {
		case "v":
			v, err = d.elementText()
		case "is":
			inline, err = d.richText()
			hasInline = true
		default:
			err = d.skip()
		}
		if err != nil {
			return "", err
		}
	}
	return r.display(typ, style, v, inline, hasInline)
}

// xlCellType returns the c@t value as one of the known constant strings
// (no allocation per cell).
func xlCellType(t []byte) string {
	switch string(t) {
	case "":
		return ""
	case "s":
		return "s"
	case "n":
		return "n"
	case "str":
		return "str"
	case "b":
		return "b"
	case "e":
		return "e"
	case "inlineStr":
		return "inlineStr"
	case "d":
		return "d"
	}
	return string(t)
}

// display returns what Excel shows for a cell of type typ and style with
// the raw value v (or inline string).
func (r *xlSheetReader) display(typ string, style int, v, inline string, hasInline bool) (string, error) {
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", nil
		}
		s, ok, err := r.sst.get(i)
		if err != nil || !ok {
			return "", err
		}
		return r.styles.format(style).text(s), nil
	case "inlineStr":
		if !hasInline {
			return r.styles.format(style).text(xlUnescape(v)), nil
		}
		return r.styles.format(style).text(inline), nil
	case "str":
		return r.styles.format(style).text(xlUnescape(v)), nil
	case "b":
		switch strings.TrimSpace(v) {
		case "":
			return "", nil
		case "0":
			return "FALSE", nil
		}
		return "TRUE", nil
	case "e":
		return v, nil
	case "d":
		if strings.TrimSpace(v) == "" {
			return "", nil
		}
		serial, ok := xlISODateSerial(strings.TrimSpace(v), r.date1904)
		if !ok {
			return v, nil
		}
		return r.styles.format(style).number(serial, r.date1904), nil
	case "", "n":
		s := strings.TrimSpace(v)
		if s == "" {
			return "", nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return v, nil
		}
		return r.styles.format(style).number(f, r.date1904), nil
	}
	return xlUnescape(v), nil
}

// xlElementText reads the character data of the element just started on
// the shared decoder (drawings).
func xlElementText(d *xmlDecoder) (string, error) {
	var b strings.Builder
	stop := d.Depth() - 1
	for d.Depth() > stop {
		tok, err := d.Token()
		if err == io.EOF {
			return "", io.ErrUnexpectedEOF
		}
		if err != nil {
			return "", err
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
		}
	}
	return b.String(), nil
}

// xlISODateSerial converts an ISO 8601 cell value (t="d") to a date serial.
func xlISODateSerial(s string, date1904 bool) (float64, bool) {
	var t time.Time
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02", "15:04:05"} {
		if t, err = time.Parse(layout, s); err == nil {
			break
		}
	}
	if err != nil {
		return 0, false
	}
	if t.Year() == 0 {
		// time only
		return float64(t.Hour()*3600+t.Minute()*60+t.Second())/86400 + float64(t.Nanosecond())/86400e9, true
	}
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	serial := float64(u.Unix()-base.Unix())/86400 + float64(u.Nanosecond())/86400e9
	if !date1904 && serial < 61 {
		serial-- // before the fictitious 1900-02-29
	}
	return serial, serial >= 0
}
