package content_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestRemoveFileFolderHeldOpen: a per-file folder whose TSV another
// program holds open as Excel does (a user opened the TSV). Held for a
// moment, RemoveFileFolder waits through workspace's retries and removes
// the folder whole, leaving no .old-* folder; held past the retries, it
// fails, the held TSV is still there (in the folder or in its .old-*
// leftover: Windows refuses the rename of a folder with an open file,
// Wine 8 allows it), and once the holder lets go RemoveLeftovers and
// a second RemoveFileFolder leave nothing.
func TestRemoveFileFolderHeldOpen(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "営業")
	makeFolder := func() (dir, tsv string) {
		dir = filepath.Join(parent, "A社.xlsx")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"売上.tsv", "経費.tsv", ".places"} {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir, filepath.Join(dir, "売上.tsv")
	}
	left := func() []string {
		ents, _ := os.ReadDir(parent)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}

	dir, tsv := makeFolder()
	release := testutil.HoldLikeExcel(t, tsv)
	go func() {
		time.Sleep(300 * time.Millisecond)
		release()
	}()
	if err := content.RemoveFileFolder(dir); err != nil {
		t.Fatalf("RemoveFileFolder with a TSV held for 300 ms: %v", err)
	}
	if l := left(); len(l) != 0 {
		t.Fatalf("left after RemoveFileFolder: %v", l)
	}

	dir, tsv = makeFolder()
	release = testutil.HoldLikeExcel(t, tsv)
	if err := content.RemoveFileFolder(dir); err == nil {
		t.Fatal("RemoveFileFolder removed a folder whose TSV is held open")
	}
	l := left()
	t.Logf("left while held: %v", l)
	if len(l) != 1 || (l[0] != "A社.xlsx" && !strings.HasPrefix(l[0], ".old-A社.xlsx-")) {
		t.Fatalf("left while held: %v, want the folder or its .old-* leftover", l)
	}
	if _, err := os.Stat(filepath.Join(parent, l[0], "売上.tsv")); err != nil {
		t.Errorf("the held TSV: %v", err)
	}
	release()
	if _, err := content.RemoveLeftovers(parent); err != nil {
		t.Fatal(err)
	}
	if err := content.RemoveFileFolder(dir); err != nil {
		t.Fatal(err)
	}
	if l := left(); len(l) != 0 {
		t.Errorf("left after the holder let go: %v", l)
	}
}
