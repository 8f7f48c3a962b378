package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// TestSearchWhilePublishing republishes one folder over and over, each time
// with every file rewritten to a new generation, while searches run: each
// search must see one generation of the folder (never a mix) and no error
// or problem.
func TestSearchWhilePublishing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "content")
	dir := content.Dir(root, `営業`)
	const files = 6
	write := func(gen int) {
		for i := 0; i < files; i++ {
			var lines []string
			for l := 0; l < 400; l++ {
				lines = append(lines, fmt.Sprintf("世代%03d ファイル%d 行%d りんご", gen, i, l))
			}
			if _, err := content.WriteFolder(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []extract.Place{{Name: "本文", Lines: lines}}); err != nil {
				t.Error(err)
			}
		}
	}
	write(0)
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	ix := []search.Index{{Name: "営業"}}
	q, err := search.Parse([]string{"ファイル", "りんご"}, search.Options{Max: -1})
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer stop.Store(true)
		for gen := 1; gen <= 8; gen++ {
			write(gen)
			if err := bodyindex.Publish(dir, nil); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var searches atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				gens := map[string]int{}
				n := 0
				st, err := search.Run(context.Background(), root, ix, q, func(h search.Hit) bool {
					gens[h.Text[:len("世代000")]]++
					n++
					return true
				})
				if err != nil || len(st.Problems) > 0 {
					t.Errorf("Run: %v %v", err, st.Problems)
					return
				}
				if len(gens) != 1 || n != files*400 {
					t.Errorf("one search saw %d hits of generations %v", n, gens)
					return
				}
				searches.Add(1)
			}
		}()
	}
	wg.Wait()
	if searches.Load() == 0 {
		t.Fatal("no search completed")
	}
	// Nothing is left but the index of the last generation.
	hits, _, _ := runQuery(t, root, ix, []string{"世代008"}, search.Options{Max: -1})
	if len(hits) != files*400 || !strings.HasPrefix(hits[0].Text, "世代008") {
		t.Fatalf("after the last publish: %d hits", len(hits))
	}
}
