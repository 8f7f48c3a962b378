package crawl

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestCrawlOnly: a scoped crawl finds exactly what a full crawl finds
// under the scoped paths, with the same skips applied to the folders above
// them (a dot folder, the workspace, a case duplicate).
func TestCrawlOnly(t *testing.T) {
	root := t.TempDir()
	touch(t, root, "a.xlsx", "sub/f.docx", "sub/deep/g.txt", "sub/h.pdf", ".dot/e.txt",
		"ws/work/store/ingest_status.tsv", "ws/x.txt", "日本語/見積.xlsm", "sub/~$f.docx")
	if runtime.GOOS != "windows" {
		touch(t, root, "Sub/dup.txt", "A.xlsx")
	}
	tests := []struct {
		name string
		only []string
		want []string
	}{
		{"one file", []string{`sub\f.docx`}, []string{`営業\sub\f.docx`}},
		{"case-insensitive", []string{`SUB\F.DOCX`}, []string{`営業\sub\f.docx`}},
		{"a folder's subtree", []string{`sub`}, []string{`営業\sub\deep\g.txt`, `営業\sub\f.docx`, `営業\sub\h.pdf`}},
		{"folder and a file inside", []string{`sub\deep`, `sub`}, []string{`営業\sub\deep\g.txt`, `営業\sub\f.docx`, `営業\sub\h.pdf`}},
		{"two paths", []string{`a.xlsx`, `日本語\見積.xlsm`}, []string{`営業\a.xlsx`, `営業\日本語\見積.xlsm`}},
		{"missing path", []string{`gone\x.txt`, `nothing.txt`}, nil},
		{"dot folder stays out", []string{`.dot\e.txt`}, nil},
		{"workspace stays out", []string{`ws\x.txt`}, nil},
		{"owner file stays out", []string{`sub\~$f.docx`}, nil},
		{"a file named like a folder on the way", []string{`a.xlsx\x.txt`}, nil},
	}
	if runtime.GOOS != "windows" {
		// The full crawl keeps the first of A.xlsx / a.xlsx in listing
		// order (A.xlsx), and Sub before sub: a scope sees the same.
		tests[0].want, tests[1].want = nil, nil
		tests[2].want = []string{`営業\Sub\dup.txt`}
		tests[3].want = tests[2].want
		tests[4].want = []string{`営業\A.xlsx`, `営業\日本語\見積.xlsm`}
	}
	ws := filepath.Join(root, "ws")
	r := workspace.Root{Name: "営業", Path: root}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Crawl(context.Background(), r, Options{Exclude: []string{ws}, Attrs: fakeAttrs{}, Only: tt.only})
			if err != nil {
				t.Fatal(err)
			}
			if got := rels(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Crawl(Only %q) = %q, want %q", tt.only, got, tt.want)
			}
			if res.Incomplete {
				t.Errorf("Incomplete: %v", res.Errors)
			}
		})
	}
}
