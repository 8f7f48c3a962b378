package xlsx

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// sheetData is what one pass over a worksheet part yields: the cell
// lines (line N = row N, §5.3) and the raw header/footer settings (§5.6).
type sheetData struct {
	lines []string
	hf    sheet.HeaderFooter
}

// sheetReader streams one worksheet.
type sheetReader struct {
	ctx      context.Context
	sst      *xlStrings
	styles   *sheet.Styles
	date1904 bool
	part     string
}

// read streams the worksheet XML: sheetData row by row into lines, and the
// headerFooter element; everything else is skipped.
func (r *sheetReader) read(rc io.Reader, depth int) (*sheetData, error) {
	d, err := xmlscan.NewScanner(rc, depth)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", r.part, err)
	}
	out := &sheetData{}
	row := 0
	var cells []sheet.Cell
	var line strings.Builder
	for {
		err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", r.part, err)
		}
		if d.Kind != xmlscan.Start {
			continue
		}
		switch {
		case string(d.Name) == "row" && d.Depth() == 3:
			n := row + 1
			if k, ok := sheet.Atoi(d.Attr("r")); ok && k >= 1 && k <= 1048576 {
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
			sheet.JoinRow(&line, cells)
			out.setLine(row, line.String())
		case string(d.Name) == "headerFooter":
			if err := out.hf.Read(d); err != nil {
				return nil, fmt.Errorf("parse %s: %w", r.part, err)
			}
		case d.Depth() == 2 && string(d.Name) != "sheetData":
			// sheetPr, cols, mergeCells, conditionalFormatting …
			if err := d.Skip(); err != nil {
				return nil, fmt.Errorf("parse %s: %w", r.part, err)
			}
		}
	}
	out.lines = sheet.TrimLines(out.lines)
	return out, nil
}

// setLine stores row n's line. Rows come in ascending order in files Excel
// writes; a repeated row number keeps the first line.
func (s *sheetData) setLine(n int, text string) {
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

// readRow reads the cells of the row element just started and returns the
// non-empty ones in field form.
func (r *sheetReader) readRow(d *xmlscan.Scanner, cells []sheet.Cell) ([]sheet.Cell, error) {
	stop := d.Depth() - 1
	col := 0
	for d.Depth() > stop {
		if err := d.Next(); err != nil {
			if err == io.EOF {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if d.Kind != xmlscan.Start {
			continue
		}
		if string(d.Name) != "c" {
			if err := d.Skip(); err != nil {
				return nil, err
			}
			continue
		}
		col++
		if ref := d.Attr("r"); len(ref) > 0 {
			if c, ok := sheet.ParseRefCol(ref); ok {
				col = c
			}
		}
		if col > 16384 {
			if err := d.Skip(); err != nil {
				return nil, err
			}
			continue
		}
		text, err := r.readCell(d)
		if err != nil {
			return nil, err
		}
		if text != "" {
			cells = append(cells, sheet.Cell{Col: col, Text: sheet.CellField(text)})
		}
	}
	return cells, nil
}

// readCell reads the c element just started and returns its display value.
func (r *sheetReader) readCell(d *xmlscan.Scanner) (string, error) {
	typ := cellType(d.Attr("t"))
	style := 0
	if n, ok := sheet.Atoi(d.Attr("s")); ok {
		style = n
	}
	if d.PendingEnd {
		return "", d.Skip()
	}
	var v, inline string
	hasInline := false
	stop := d.Depth() - 1
	for d.Depth() > stop {
		if err := d.Next(); err != nil {
			if err == io.EOF {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if d.Kind != xmlscan.Start {
			continue
		}
		var err error
		switch string(d.Name) {
		case "v":
			v, err = d.ElementText()
		case "is":
			inline, err = sheet.RichText(d)
			hasInline = true
		default:
			err = d.Skip()
		}
		if err != nil {
			return "", err
		}
	}
	return r.display(typ, style, v, inline, hasInline)
}

// cellType returns the c@t value as one of the known constant strings
// (no allocation per cell).
func cellType(t []byte) string {
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
func (r *sheetReader) display(typ string, style int, v, inline string, hasInline bool) (string, error) {
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
		return r.styles.Format(style).Text(s), nil
	case "inlineStr":
		if !hasInline {
			return r.styles.Format(style).Text(sheet.Unescape(v)), nil
		}
		return r.styles.Format(style).Text(inline), nil
	case "str":
		return r.styles.Format(style).Text(sheet.Unescape(v)), nil
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
		serial, ok := sheet.ISODateSerial(strings.TrimSpace(v), r.date1904)
		if !ok {
			return v, nil
		}
		return r.styles.Format(style).Number(serial, r.date1904), nil
	case "", "n":
		s := strings.TrimSpace(v)
		if s == "" {
			return "", nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return v, nil
		}
		return r.styles.Format(style).Number(f, r.date1904), nil
	}
	return sheet.Unescape(v), nil
}
