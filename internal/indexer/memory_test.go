package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// indexedBody is a body index that holds every file it was told of, with
// one place each (a tree indexed before the run).
type indexedBody struct {
	nopBody
	files map[string]map[string]int // folder (content path) → name → places
}

func (b *indexedBody) Files(dir string) (map[string]int, error) { return b.files[dir], nil }

// TestIngestHoldsRowsOnly bounds the coordinator's live heap while it
// ingests, per row of the ingest list: 10,000 files ingested before, one
// changed. What the run keeps is its rows (and their text) and the
// targets; the previous list, the crawl, the plan and any map of every
// row by path are gone by then (issue 21: they were several copies of
// every row, ~1.7 KB per file of the coordinator's memory).
func TestIngestHoldsRowsOnly(t *testing.T) {
	const folders, perFolder = 100, 100
	base := t.TempDir()
	root := filepath.Join(base, "src")
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	body := &indexedBody{files: map[string]map[string]int{}}
	var rows []ingestlist.Row
	for d := range folders {
		dir := filepath.Join(root, "部署", fmt.Sprintf("2024年度-%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		rel := fmt.Sprintf(`src\部署\2024年度-%03d`, d)
		names := map[string]int{}
		body.files[content.Dir(ws.ContentRoot(), rel)] = names
		for f := range perFolder {
			name := fmt.Sprintf("見積書-%05d.txt", f)
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			names[name] = 1
			rows = append(rows, ingestlist.Row{RelPath: rel + `\` + name, Updated: ingestlist.FormatFileTime(st.ModTime()), Size: st.Size(),
				State: ingestlist.Done, TSVCount: 1, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35", Version: extract.Version(name)})
		}
	}
	if err := ingestlist.WriteFile(ws.IngestList(), []ingestlist.Folder{{Path: root, Name: "src"}}, rows); err != nil {
		t.Fatal(err)
	}
	n := len(rows)
	rows = nil
	if err := os.WriteFile(filepath.Join(root, "部署", "2024年度-000", "見積書-00000.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}

	before := heapInUse()
	var during uint64
	var seen []string
	_, err = Run(Options{
		Workspace: ws,
		Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
		Body:      body,
		Workers:   1,
		Observe: func(e Event) {
			if e.Outcome != "" && during == 0 {
				during = heapInUse() // the first file recorded
			}
		},
		newSlot: func(worker.Config, string) slot { return scriptedSlot{script: answer, seen: &seen} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 {
		t.Fatalf("%d files ingested, want the one changed", len(seen))
	}
	perRow := (float64(during) - float64(before)) / float64(n)
	// A row is 120 B and its line's text ~130 B; the slice's growth and
	// the run's own state make up the rest.
	const limit = 450
	t.Logf("%.0f B of live heap per row while ingesting (limit %d)", perRow, limit)
	if perRow > limit {
		t.Errorf("the coordinator holds %.0f B per row while ingesting, want ≤ %d", perRow, limit)
	}
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
