package web_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/web"
)

// TestIssue36LongLine: a line of 2 MB (stored in pieces by the cap) gives
// a search stream and a preview of a few KB: the hit is cut around its
// match, the preview shows the line's first piece cut to 1,000
// characters, and the lines after it keep their numbers.
func TestIssue36LongLine(t *testing.T) {
	e := newEnv(t, "")
	long := "先頭語" + strings.Repeat("あいうえおかきくけこ", 70000) + "末尾語"
	lines := append([]string{"一行目"}, extract.AppendLine(nil, long)...)
	lines = append(lines, "三行目")
	e.publish("長い.txt", extract.Place{Name: "本文", Lines: lines})
	row := strings.Repeat("セル\t", 50) + long
	sheet := append([]string{"見出し\t金額"}, extract.AppendLine(nil, row)...)
	e.publish("長い.xlsx", extract.Place{Name: "売上", Lines: append(sheet, "合計\t3")})

	for _, word := range []string{"先頭語", "末尾語"} {
		resp := e.do(http.MethodGet, "/api/search?"+url.Values{"q": {word}}.Encode(), "", nil)
		body, _ := io.ReadAll(resp.Body)
		if len(body) > 20000 {
			t.Errorf("search %s: %d bytes", word, len(body))
		}
		hits := 0
		for _, l := range e.search(url.Values{"q": {word}}.Encode()) {
			if l.Type != "hit" {
				continue
			}
			hits++
			if n := utf8.RuneCountInString(l.Text); n > 1002 || strings.Contains(l.Text, extract.ContinuationMark) {
				t.Errorf("search %s: hit text of %d characters", word, n)
			}
			if m := l.Matches; len(m) != 1 || l.Text[m[0][0]:m[0][1]] != word {
				t.Errorf("search %s: matches %v", word, m)
			}
			if l.Row != 2 {
				t.Errorf("search %s: %s row %d, want 2", word, l.Path, l.Row)
			}
		}
		if hits != 2 {
			t.Errorf("search %s: %d hits, want 2", word, hits)
		}
	}

	for _, tc := range []struct {
		path, place string
		grid        bool
	}{{`営業\長い.txt`, "本文", false}, {`営業\長い.xlsx`, "売上", true}} {
		q := url.Values{"path": {tc.path}, "place": {tc.place}, "row": {"2"}}
		resp := e.do(http.MethodGet, "/api/preview?"+q.Encode(), "", nil)
		body, _ := io.ReadAll(resp.Body)
		if len(body) > 20000 {
			t.Errorf("preview %s: %d bytes", tc.path, len(body))
		}
		var v web.PreviewView
		e.getJSON("/api/preview?"+q.Encode(), &v)
		var ns []int
		for _, r := range v.Rows {
			ns = append(ns, r.N)
		}
		if v.Lines != 3 || len(ns) != 3 || ns[0] != 1 || ns[1] != 2 || ns[2] != 3 || v.Grid != tc.grid {
			t.Fatalf("preview %s: %d lines, rows %v", tc.path, v.Lines, ns)
		}
		cells := v.Rows[1].Cells
		last := cells[len(cells)-1]
		if !strings.HasSuffix(last, "…") || utf8.RuneCountInString(last) > 1001 || !strings.Contains(strings.Join(cells, ""), "先頭語") {
			t.Errorf("preview %s: row 2 = %.40q … %.40q", tc.path, cells[0], last)
		}
	}
}
