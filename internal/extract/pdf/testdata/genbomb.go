//go:build ignore

// genbomb writes xobject-bomb.pdf (issue 36): a one-page PDF whose page
// draws form XObject X7, each Xi (i > 0) draws X(i-1) 32 times, and X0
// shows a line of text, so the page holds 32^7 text objects though the
// file is 2 KB. Run: go run genbomb.go (in this folder).
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

const (
	depth  = 7
	fanout = 32
)

func main() {
	var objs []string // object i+1
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	stream := func(dict, data string) string {
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
	}
	font := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	prev := add(stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 600 800] /Resources << /Font << /F1 %d 0 R >> >>", font),
		"BT /F1 8 Tf 10 10 Td (BOMB bomb BOMB bomb) Tj ET"))
	for i := 1; i <= depth; i++ {
		draw := strings.Repeat(fmt.Sprintf("/X%d Do ", i-1), fanout)
		prev = add(stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 600 800] /Resources << /XObject << /X%d %d 0 R >> >>", i-1, prev), draw))
	}
	content := add(stream("", fmt.Sprintf("/X%d Do", depth)))
	pages := len(objs) + 2
	page := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 600 800] /Contents %d 0 R /Resources << /XObject << /X%d %d 0 R >> >> >>", pages, content, depth, prev))
	add(fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	catalog := add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))

	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, catalog, xref)
	if err := os.WriteFile("xobject-bomb.pdf", b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
