package main

import (
	"bytes"
	"strconv"
	"strings"
)

// grid is a sheet's cells: grid[r][c] is row r+1, column c+1, with line
// breaks as LF.
type grid [][]string

func (g grid) at(r, c int) string {
	if r < len(g) && c < len(g[r]) {
		return g[r][c]
	}
	return ""
}

// placeGrid reads the lines of a fumibako sheet place: line N is row N,
// cells by TAB; a cell starting with `"` runs to the next lone `"`, with
// `""` for `"`; U+2028 is an in-cell line break.
func placeGrid(lines []string) grid {
	g := make(grid, len(lines))
	for i, l := range lines {
		g[i] = splitPlaceLine(l)
	}
	return g
}

func splitPlaceLine(l string) []string {
	if l == "" {
		return nil
	}
	var cells []string
	for i := 0; ; {
		var b strings.Builder
		if i < len(l) && l[i] == '"' {
			i++
			for i < len(l) {
				if l[i] == '"' {
					if i+1 < len(l) && l[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(l[i])
				i++
			}
		}
		// Unquoted text, or anything after a closing quote, runs to the
		// next TAB.
		j := strings.IndexByte(l[i:], '\t')
		if j < 0 {
			j = len(l) - i
		}
		b.WriteString(l[i : i+j])
		cells = append(cells, normalize(strings.ReplaceAll(b.String(), "\u2028", "\n")))
		i += j
		if i >= len(l) {
			return cells
		}
		i++ // the TAB
	}
}

// csvGrid reads LibreOffice's CSV (comma, `"` quoting with `""`, line
// breaks inside quotes kept). Unlike encoding/csv it keeps empty lines,
// which are empty rows of a one-column sheet. A stray quote inside an
// unquoted field is kept as text.
func csvGrid(b []byte) grid {
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	var g grid
	var row []string
	var cell strings.Builder
	endCell := func() {
		row = append(row, normalize(cell.String()))
		cell.Reset()
	}
	endRow := func() {
		endCell()
		if len(row) == 1 && row[0] == "" {
			row = nil
		}
		g = append(g, row)
		row = nil
	}
	for i := 0; i < len(b); {
		if b[i] == '"' && cell.Len() == 0 {
			i++
			for i < len(b) {
				if b[i] == '"' {
					if i+1 < len(b) && b[i+1] == '"' {
						cell.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				cell.WriteByte(b[i])
				i++
			}
			continue
		}
		switch b[i] {
		case ',':
			endCell()
		case '\n':
			endRow()
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			endRow()
		default:
			cell.WriteByte(b[i])
		}
		i++
	}
	if cell.Len() > 0 || len(row) > 0 {
		endRow()
	}
	return g
}

// normalize makes CRLF and CR into LF.
func normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// cellDiff is one cell whose texts differ.
type cellDiff struct {
	row, col int // 1-based
	ours, lo string
}

// compareGrids counts the cells that are non-empty on either side and
// those among them that are equal, and lists the others.
func compareGrids(ours, lo grid) (cells, equal int, diffs []cellDiff) {
	rows := max(len(ours), len(lo))
	for r := 0; r < rows; r++ {
		var a, b []string
		if r < len(ours) {
			a = ours[r]
		}
		if r < len(lo) {
			b = lo[r]
		}
		for c := 0; c < max(len(a), len(b)); c++ {
			x, y := grid{a}.at(0, c), grid{b}.at(0, c)
			if x == "" && y == "" {
				continue
			}
			cells++
			if x == y {
				equal++
				continue
			}
			diffs = append(diffs, cellDiff{row: r + 1, col: c + 1, ours: x, lo: y})
		}
	}
	return cells, equal, diffs
}

// cellName is the A1 address of a 1-based row and column.
func cellName(row, col int) string {
	var b []byte
	for col > 0 {
		col--
		b = append([]byte{byte('A' + col%26)}, b...)
		col /= 26
	}
	return string(b) + strconv.Itoa(row)
}
