package indexer

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestUnchangedRerunWritesNothing: a rerun over a tree that did not change
// since the last run writes neither the ingest list nor the journal nor
// run_stats.json (issue 21: an unchanged rerun costs the crawl); the first
// rerun after a build replaces the build's journal by one with nothing to
// do, and the list it leaves byte-identical and untouched. A change in the
// tree makes the rerun write as before; the start after a run that swapped
// removes what a swap cut by a crash left (an idle run does not look).
func TestUnchangedRerunWritesNothing(t *testing.T) {
	tests := []struct {
		name   string
		reruns int               // unchanged reruns before the measured one
		change func(root string) // the tree's change before the measured run
		files  []string          // files of work/ the measured run writes (or removes), sorted
		marks  bool              // the run marks the index as changing
	}{
		// The leftover's removal changes its folder: the summary is written again.
		{name: "first rerun after the build", files: []string{"indexing_log.txt", "store/content/.fumibako-summary.src", "store/journal/ingest.tsv"}, marks: true},
		{name: "second rerun", reruns: 1, files: []string{"indexing_log.txt"}},
		{name: "a file changed", reruns: 1, change: func(root string) {
			os.WriteFile(filepath.Join(root, "sub", "b.txt"), []byte("changed"), 0o644)
		}, files: []string{"indexing_log.txt", "store/ingest_status.tsv", "store/journal/ingest.tsv"}, marks: true},
		{name: "a file removed", reruns: 1, change: func(root string) {
			os.Remove(filepath.Join(root, "sub", "b.txt"))
		}, files: []string{"indexing_log.txt", "store/ingest_status.tsv", "store/journal/ingest.tsv"}, marks: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "src")
			for _, f := range []string{"a.txt", "sub/b.txt", "sub/c.txt"} {
				p := filepath.Join(root, filepath.FromSlash(f))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ws, err := workspace.Open(filepath.Join(base, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			run := func() {
				t.Helper()
				var seen []string
				_, err := Run(Options{
					Workspace: ws,
					Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
					Body:      bodyindex.Store{},
					Workers:   1,
					newSlot: func(worker.Config, string) slot {
						return scriptedSlot{script: answer, seen: &seen}
					},
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			for range 1 + tt.reruns {
				run()
			}
			if tt.change != nil {
				tt.change(root)
			}
			// What a swap cut by a crash leaves, after a run that swapped
			// (its journal holds 始): the next start removes it.
			leftover := filepath.Join(ws.ContentRoot(), "src", ".old-a.txt-1-0")
			if tt.reruns == 0 {
				if err := os.MkdirAll(leftover, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, ws.Work())
			contentBefore, err := os.Stat(ws.ContentRoot())
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond) // a rewrite would have a later time
			run()
			after := snapshot(t, ws.Work())
			if _, err := os.Stat(leftover); !os.IsNotExist(err) {
				t.Errorf("swap leftover %s not removed: %v", leftover, err)
			}
			// The changing mark is made and removed in the content root
			// (rule 7): a run that changes nothing makes none.
			contentAfter, err := os.Stat(ws.ContentRoot())
			if err != nil {
				t.Fatal(err)
			}
			if marked := !contentAfter.ModTime().Equal(contentBefore.ModTime()); marked != tt.marks {
				t.Errorf("the content root changed (the index marked as changing) = %v, want %v", marked, tt.marks)
			}
			var written []string
			for name, st := range after {
				if old, ok := before[name]; !ok || !sameFile(old, st) {
					written = append(written, name)
				}
			}
			for name := range before {
				if _, ok := after[name]; !ok {
					written = append(written, name)
				}
			}
			if tt.change != nil {
				// The body index and its summary change with the files.
				written = slices.DeleteFunc(written, func(n string) bool { return strings.HasPrefix(n, "store/content/") })
			}
			slices.Sort(written)
			check(t, "files written", written, tt.files)
		})
	}
}

// snapshot lists the files under dir (not folders) with their stat.
func snapshot(t *testing.T, dir string) map[string]fs.FileInfo {
	t.Helper()
	out := map[string]fs.FileInfo{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameFile: the same file (inode), not rewritten (time and size).
func sameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}
