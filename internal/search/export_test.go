package search_test

import (
	"bytes"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
	"github.com/fumibako/fumibako/internal/testutil"
)

func TestWriteExport(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	for _, tt := range []struct {
		name  string
		words []string
		opts  search.Options
	}{
		{"ringo", []string{"りんご"}, search.Options{}},
		{"quoted", []string{"1"}, search.Options{}},
		{"none", []string{"存在しない語"}, search.Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, err := search.Parse(tt.words, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			hits, _, err := runQuery(t, root, ix, tt.words, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := export.Write(&b, q.Text, hits); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, testutil.GoldenPath(t, tt.name), b.Bytes())
		})
	}
}
