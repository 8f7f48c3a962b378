package sheet

import (
	"bytes"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Cell is one non-empty displayed cell of a row.
type Cell struct {
	Col  int
	Text string // display value, already in field form (CellField)
}

// Atoi parses a non-negative decimal number of at most 9 digits, with
// XML white space around it.
func Atoi(b []byte) (int, bool) {
	b = bytes.Trim(b, " \t\r\n")
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

// JoinRow writes the cells (field k = column k) into b: TABs before
// each cell up to its column, nothing after the last non-empty cell.
func JoinRow(b *strings.Builder, cells []Cell) {
	b.Reset()
	if !sort.SliceIsSorted(cells, func(i, j int) bool { return cells[i].Col < cells[j].Col }) {
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].Col < cells[j].Col })
	}
	col := 1
	for i, c := range cells {
		if i > 0 && c.Col == cells[i-1].Col {
			continue
		}
		for ; col < c.Col; col++ {
			b.WriteByte('\t')
		}
		b.WriteString(c.Text)
	}
}

// TrimLines drops trailing empty lines; a sheet holding only whitespace
// has no lines at all.
func TrimLines(lines []string) []string {
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

// ParseRefCol returns the column of an A1 reference.
func ParseRefCol(ref []byte) (int, bool) {
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

// ISODateSerial converts an ISO 8601 cell value (t="d") to a date serial.
func ISODateSerial(s string, date1904 bool) (float64, bool) {
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
