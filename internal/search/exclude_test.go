package search_test

import (
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// TestIssue18Exclude: the search-target tree's unchecked nodes leave out a
// whole folder tree, only a folder's own files, or an index.
func TestIssue18Exclude(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	files := func(ex ...search.Exclude) []string {
		t.Helper()
		hits, _, err := runQuery(t, root, ix, []string{"りんご"}, search.Options{Exclude: ex, NoNames: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			if len(out) == 0 || out[len(out)-1] != h.Path() {
				out = append(out, h.Path())
			}
		}
		return out
	}
	all := files()
	for _, tt := range []struct {
		name string
		ex   []search.Exclude
		want []string
	}{
		{"nothing", nil, all},
		{"a sub-folder's tree", []search.Exclude{{Path: `営業\2024`, Subfolders: true}}, []string{`営業\old_見積.xlsx`, `営業\報告.docx`, `営業\見積.xlsx`, `経理\請求.xlsx`}},
		{"a folder's own files (ignoring case)", []search.Exclude{{Path: `営業`}}, []string{`営業\2024\メモ.txt`, `営業\2024\発表.pptx`, `経理\請求.xlsx`}},
		{"an index", []search.Exclude{{Path: `経理`, Subfolders: true}}, []string{`営業\old_見積.xlsx`, `営業\報告.docx`, `営業\見積.xlsx`, `営業\2024\メモ.txt`, `営業\2024\発表.pptx`}},
		{"everything", []search.Exclude{{Path: `営業`, Subfolders: true}, {Path: `経理`, Subfolders: true}}, nil},
	} {
		if got := files(tt.ex...); !slices.Equal(got, tt.want) {
			t.Errorf("%s: files %q, want %q", tt.name, got, tt.want)
		}
	}
}
