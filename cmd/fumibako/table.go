package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// table is a text table whose columns line up by display width (a Japanese
// character takes two columns, text/tabwriter counts one).
type table struct {
	head  []string
	right []bool // per column: right-aligned (numbers)
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table: columns separated by two spaces, no trailing
// blanks on a line.
func (t *table) write(w io.Writer) error {
	widths := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	bw := bufio.NewWriter(w)
	for _, r := range append([][]string{t.head}, t.rows...) {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			switch {
			case i < len(t.right) && t.right[i]:
				b.WriteString(padLeft(c, widths[i]))
			case i == len(r)-1:
				b.WriteString(c)
			default:
				b.WriteString(padRight(c, widths[i]))
			}
		}
		bw.WriteString(strings.TrimRight(b.String(), " "))
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// jsonLines writes one JSON object per line (--json), keeping its first
// error; HTML characters are not escaped (paths hold & and <).
type jsonLines struct {
	enc *json.Encoder
	err error
}

func newJSONLines(w io.Writer) *jsonLines {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &jsonLines{enc: enc}
}

func (j *jsonLines) write(v any) {
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
}
