package search_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/search"
)

// TestDamagedFolders corrupts one folder's part and gives another folder
// an index of an unknown version: both are reported, the rest is searched.
func TestDamagedFolders(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	sub := content.Dir(root, `営業\2024`)
	ents, _ := os.ReadDir(sub)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), format.ManifestName+".") {
			path := filepath.Join(sub, e.Name())
			data, _ := os.ReadFile(path)
			os.Remove(path)
			for i := 16; i < len(data); i++ {
				data[i] = 0xFF // every section offset and count broken
			}
			os.WriteFile(path, data, 0o644)
		}
	}
	m := filepath.Join(content.Dir(root, `経理`), format.ManifestName)
	data, _ := os.ReadFile(m)
	data[8] = 99
	os.WriteFile(m, data, 0o644)

	hits, st, err := runQuery(t, root, ix, []string{"りんご"}, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{hOld, hRep1, hRepShape, hMitsu3, hShape, hComment, hHeader}
	var got []string
	for _, h := range hits {
		got = append(got, hitString(h))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hits:\n%s", strings.Join(got, "\n"))
	}
	if len(st.Problems) != 2 {
		t.Fatalf("problems %v", st.Problems)
	}
	msgs := st.Problems[0].Message() + "\n" + st.Problems[1].Message()
	for _, w := range []string{
		"読めないインデックスがあったため、その部分は検索していません（次のインデックス作成で作り直します）: 営業\\2024",
		"古い形式のインデックスのため検索できませんでした（次のインデックス作成で作り直します）: 経理",
	} {
		if !strings.Contains(msgs, w) {
			t.Errorf("problems %q lack %q", msgs, w)
		}
	}
}
