package bodyindex

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if _, err := content.WriteFolder(filepath.Join(dir, name), []extract.Place{{Name: "本文", Lines: []string{text}}}); err != nil {
		t.Fatal(err)
	}
}

// indexFiles lists the body-index names in dir: parts, manifest, and
// deferred ones.
func indexFiles(t *testing.T, dir string) (live, deferred []string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range ents {
		switch n := e.Name(); {
		case format.IsDeferred(n):
			deferred = append(deferred, n)
		case strings.HasPrefix(n, format.ManifestName):
			live = append(live, n)
		}
	}
	return live, deferred
}

// wantLive checks that dir holds the manifest and exactly the parts it lists.
func wantLive(t *testing.T, dir string, live []string) {
	t.Helper()
	f, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{format.ManifestName}
	for i := 0; i < f.NumParts(); i++ {
		want = append(want, format.PartName(f.PartID(i)))
	}
	sort.Strings(want)
	sort.Strings(live)
	if strings.Join(live, " ") != strings.Join(want, " ") {
		t.Fatalf("index files %q, want the manifest and its parts %q", live, want)
	}
}

// TestDeferredPartDeletion: republishing a folder while a search has its
// old parts mapped renames them to "to delete" names (Windows refuses to
// delete them); they go when the search unmaps them. Before, they stayed
// under their own names for good.
func TestDeferredPartDeletion(t *testing.T) {
	failWhileMapped(t)
	dir := filepath.Join(indextest.TempDir(t), "営業", "2024")
	writeFile(t, dir, "A.txt", "見積 りんご")
	writeFile(t, dir, "B.txt", "請求 みかん")
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	reader, err := format.OpenFolder(dir) // a search in progress: parts mapped
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "A.txt"))
	writeFile(t, dir, "C.txt", "納品 ぶどう")
	if err := Publish(dir, []string{"A.txt"}); err != nil {
		t.Fatal(err)
	}
	live, deferred := indexFiles(t, dir)
	wantLive(t, dir, live)
	if len(deferred) == 0 {
		t.Fatalf("no deferred part while the old ones are mapped (live %q)", live)
	}
	reader.Close() // the search ends: unmapped, the deferred parts go
	if live, deferred = indexFiles(t, dir); len(deferred) != 0 {
		t.Fatalf("deferred parts %q left after unmapping", deferred)
	}
	wantLive(t, dir, live)
}

// TestDeferredSummaryAndIndexRemoval: removing an index whose parts are
// mapped and whose summary cannot be deleted leaves only "to delete"
// names, which the next start (content.RemoveLeftovers) removes with
// their folders.
func TestDeferredSummaryAndIndexRemoval(t *testing.T) {
	failWhileMapped(t)
	root := indextest.TempDir(t)
	dir := filepath.Join(root, "営業", "2024")
	writeFile(t, dir, "A.txt", "見積 りんご")
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	if err := summary.Write(root, "営業"); err != nil {
		t.Fatal(err)
	}
	reader, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := format.RemoveFile
	sumPath := summary.Path(root, "営業")
	format.RemoveFile = func(p string) error {
		if p == sumPath {
			return &os.PathError{Op: "remove", Path: p, Err: syscall.Errno(32)} // ERROR_SHARING_VIOLATION
		}
		return old(p)
	}
	if err := format.RemoveIndexTree(filepath.Join(root, "営業")); err != nil {
		t.Fatal(err)
	}
	if err := summary.Remove(root, "営業"); err != nil {
		t.Fatal(err)
	}
	format.RemoveFile = old
	if _, err := os.Stat(sumPath); !os.IsNotExist(err) {
		t.Fatalf("summary still under its name: %v", err)
	}
	if live, _ := indexFiles(t, dir); len(live) != 0 {
		t.Fatalf("index files %q left under their names", live)
	}
	reader.Close()
	if _, err := content.RemoveLeftovers(root); err != nil {
		t.Fatal(err)
	}
	var left []string
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error {
		if p != root {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Fatalf("left after the next start: %q", left)
	}
}
