package search_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// bigCorpus has three folders of files whose every line matches, each
// folder several blocks long.
func bigCorpus(t testing.TB) []corpusFile {
	var files []corpusFile
	for _, folder := range []string{`営業\a`, `営業\b`, `営業\c`} {
		for f := 0; f < 4; f++ {
			var lines []string
			for l := 0; l < 1500; l++ {
				lines = append(lines, fmt.Sprintf("%s %d 行 %d りんご %s", folder, f, l, strings.Repeat("詰め物", 10)))
			}
			files = append(files, corpusFile{path: fmt.Sprintf(`%s\f%d.txt`, folder, f), places: []extract.Place{{Name: "本文", Lines: lines}}})
		}
	}
	return files
}

// TestCapStopsEarly checks that reaching the cap stops the workers: with
// a cap of 1 only a few blocks are scanned, and the hit is the first line
// in search order.
func TestCapStopsEarly(t *testing.T) {
	root, ix := buildCorpus(t, bigCorpus(t))
	hits, st, err := runQuery(t, root, ix, []string{"りんご"}, search.Options{Max: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || !st.Truncated || hits[0].Path() != `営業\a\f0.txt` || hits[0].Row != 1 {
		t.Fatalf("hits %v, stats %+v", hits, st)
	}
	if st.Blocks > 6 {
		t.Fatalf("%d blocks scanned for a cap of 1", st.Blocks)
	}
	all, st, _ := runQuery(t, root, ix, []string{"りんご"}, search.Options{Max: -1})
	if len(all) != 3*4*1500 || st.Blocks < 12 {
		t.Fatalf("no cap: %d hits, %d blocks", len(all), st.Blocks)
	}
}

// TestStreaming checks that hits come out while the search still runs:
// emit stops the search after the first hit, long before the end.
func TestStreaming(t *testing.T) {
	root, ix := buildCorpus(t, bigCorpus(t))
	q, _ := search.Parse([]string{"りんご"}, search.Options{Max: -1})
	n := 0
	st, err := search.Run(context.Background(), root, ix, q, func(h search.Hit) bool {
		n++
		return n < 10
	})
	if err != nil || n != 10 || st.Hits != 10 || st.Truncated {
		t.Fatalf("stopped after %d hits: %v, %+v", n, err, st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	st, err = search.Run(ctx, root, ix, q, func(h search.Hit) bool {
		n++
		if n == 5 {
			cancel()
		}
		return true
	})
	if err != context.Canceled || !st.Cancelled || st.Hits < 5 || st.Hits > 5+2*search.DefaultMax {
		t.Fatalf("cancel: %v, %+v", err, st)
	}
}
