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
// ingests, per file of the tree (10,000 files in 100 folders): what the
// run keeps is its rows (and their text) and its targets; the previous
// list, the crawl, the plan and any map of every row by path are gone by
// then (issue 21: they were several copies of every row, ~1.7 KB per file
// of the coordinator's memory). Before this bound: 739 B per file with 1 %
// changed, 496 B for a build.
func TestIngestHoldsRowsOnly(t *testing.T) {
	tests := []struct {
		name    string
		indexed bool // the tree was ingested before, and one file changed since
		limit   float64
	}{
		// A row (120 B) and its line's text (~130 B), with the slices'
		// growth.
		{name: "1 % changed", indexed: true, limit: 400},
		// A row with its time (~150 B) and a target with its two paths
		// (~300 B): every file is one.
		{name: "build", limit: 470},
	}
	if runtime.GOOS == "windows" {
		// A crawled file's os.FileInfo is Windows' fileStat, with its
		// Win32 attributes, three times and volume and file ids: 535 B
		// per file under Wine's Windows build.
		tests[1].limit = 600
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root, body, n := memoryTree(t, 100, 100, tt.indexed)
			stop := make(chan struct{})
			before := heapInUse()
			var during uint64
			var seen []string
			_, err := Run(Options{
				Workspace: ws,
				Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
				Body:      body,
				Workers:   1,
				Stop:      stop,
				Observe: func(e Event) {
					if e.Outcome != "" && during == 0 {
						during = heapInUse() // the first file recorded
						close(stop)          // the rest would measure nothing more
					}
				},
				newSlot: func(worker.Config, string) slot { return scriptedSlot{script: answer, seen: &seen} },
			})
			if err != nil {
				t.Fatal(err)
			}
			if tt.indexed && len(seen) != 1 {
				t.Fatalf("%d files ingested, want the one changed", len(seen))
			}
			perFile := (float64(during) - float64(before)) / float64(n)
			t.Logf("%.0f B of live heap per file while ingesting (limit %.0f)", perFile, tt.limit)
			if perFile > tt.limit {
				t.Errorf("the coordinator holds %.0f B per file while ingesting, want ≤ %.0f", perFile, tt.limit)
			}
		})
	}
}

// memoryTree makes a tree of folders × perFolder files; indexed: an
// ingest list and a body index that hold them all, the first file changed
// since.
func memoryTree(t *testing.T, folders, perFolder int, indexed bool) (*workspace.Workspace, string, BodyIndex, int) {
	t.Helper()
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
	if !indexed {
		return ws, root, &nopBody{}, len(rows)
	}
	if err := ingestlist.WriteFile(ws.IngestList(), []ingestlist.Folder{{Path: root, Name: "src"}}, rows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "部署", "2024年度-000", "見積書-00000.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, root, body, len(rows)
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
