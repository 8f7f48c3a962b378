package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestIssue36PDFHeaderTextIndexed: a .txt and a .csv that start with
// "%PDF-" and hold Japanese text are ingested as text and their words are
// found (they failed "incorrect format" in the PDF engine); a real PDF
// renamed .txt is still read as a PDF, its page text found at its page.
func TestIssue36PDFHeaderTextIndexed(t *testing.T) {
	f := newFixture(t)
	f.write("メモ.txt", "%PDF-ファイルの送り方\n見積書は先方へ送付済み\n")
	f.write("一覧.csv", "%PDF-1.7,版\n請求書,納品済み\n")
	pdf, err := os.ReadFile(filepath.Join("..", "..", "internal", "extract", "pdf", "testdata", "lo-horizontal.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	f.write("改名.txt", string(pdf))
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	for _, file := range []string{"メモ.txt", "一覧.csv", "改名.txt"} {
		if r := f.row(file); r.State != ingestlist.Done || r.Error != "" {
			t.Errorf("%s: %v %q, want done", file, r.State, r.Error)
		}
	}
	for _, tt := range []struct {
		word string
		want string // path, label, kind, text of the one hit
	}{
		{"先方へ送付", "営業\\メモ.txt|2 行目|本文|見積書は先方へ送付済み"},
		{"ファイルの送り方", "営業\\メモ.txt|1 行目|本文|%PDF-ファイルの送り方"},
		{"納品済み", "営業\\一覧.csv|2 行目|本文|請求書,納品済み"},
		{"PAGETHREECC", "営業\\改名.txt|3 ページ|本文|三頁目 PAGETHREECC　以上。"},
	} {
		out, errOut, code := f.run("search", tt.word, "--json")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var h struct{ Index, Path, Label, Kind, Text string }
			if json.Unmarshal([]byte(line), &h) == nil {
				got = append(got, strings.Join([]string{h.Index + `\` + h.Path, h.Label, h.Kind, h.Text}, "|"))
			}
		}
		if code != 0 || len(got) != 1 || got[0] != tt.want {
			t.Errorf("search %s: exit %d %q%s\nwant %q", tt.word, code, got, errOut, tt.want)
		}
	}
}
