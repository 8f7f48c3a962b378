package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// FuzzParse feeds random words and options to the query parser and runs
// what parses over a small corpus: errors are *QueryError, nothing panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"りんご", "-社外秘 りんご", "(a", "a**", `\d{3}$`, "ｶﾞｽ", `\-x`, "[^a-z]", "\\Q.*\\E", "(?s).", "^$"} {
		f.Add(s, uint8(0), "*.xlsx;!old*")
		f.Add(s, uint8(1), "")
		f.Add(s, uint8(7), "見積")
	}
	root, ix := buildCorpus(f, knownCorpus)
	f.Fuzz(func(t *testing.T, query string, flags uint8, names string) {
		opts := search.Options{Regex: flags&1 != 0, Case: flags&2 != 0, Kana: flags&4 != 0, NoShapes: flags&8 != 0, Names: names, Max: 20}
		q, err := search.Parse(strings.Fields(query), opts)
		if err != nil {
			if _, ok := err.(*search.QueryError); !ok {
				t.Fatalf("Parse(%q) = %T %v", query, err, err)
			}
			return
		}
		_, err = search.Run(context.Background(), root, ix, q, func(h search.Hit) bool {
			for _, m := range h.Matches {
				if m[0] < 0 || m[1] > len(h.Text) || m[0] >= m[1] {
					t.Fatalf("bad match %v in %q", m, h.Text)
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
