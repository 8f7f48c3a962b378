package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// TestSummaryHeldOpenDuringIndex: a run whose index summary another
// program holds open as Excel holds a file (a backup tool reading the
// store) still takes a changed file (済) through the group commit and ends
// normally; the summary it cannot rewrite only leaves the index marked as
// changing (.fumibako-changing.<index>), so a search checks folder times
// and finds the new file's text instead of believing the stale summary.
// Once the summary is let go, the next run rewrites it and clears the
// mark. Wine refuses the rename over the held file as Windows does.
func TestSummaryHeldOpenDuringIndex(t *testing.T) {
	f := newFixture(t)
	if _, err := testcorpus.Generate(f.root, 4, 5); err != nil {
		t.Fatal(err)
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	content := filepath.Join(f.ws, "work", "store", "content")
	summaries, _ := filepath.Glob(filepath.Join(content, ".fumibako-summary.*"))
	if len(summaries) != 1 {
		t.Fatalf("summaries after the first run: %v, want one", summaries)
	}
	index := strings.TrimPrefix(filepath.Base(summaries[0]), ".fumibako-summary.")
	marker := filepath.Join(content, ".fumibako-changing."+index)
	if err := testcorpus.WriteText(filepath.Join(f.root, "追加", "新しいメモ.txt"), "保留中の合言葉ふみばこ\n", "utf-8"); err != nil {
		t.Fatal(err)
	}

	release := holdLikeExcel(t, f, summaries[0])
	f.mustRun("index", "--workers", "2")
	if r := f.row("追加/新しいメモ.txt"); r.State != ingestlist.Done {
		t.Errorf("new file with the summary held open: %s (%s)", r.State, r.Error)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the index is not marked as changing after its summary could not be rewritten: %v", err)
	}
	if out := f.mustRun("search", "保留中の合言葉"); !strings.Contains(out, "新しいメモ.txt") {
		t.Errorf("search with the stale summary misses the new file:\n%s", out)
	}
	release()

	f.mustRun("index", "--workers", "2")
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("marker after a run with the summary let go: %v", err)
	}
	if out := f.mustRun("search", "保留中の合言葉"); !strings.Contains(out, "新しいメモ.txt") {
		t.Errorf("search after the summary was rewritten misses the new file:\n%s", out)
	}
}
