package searchcorpus

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTree checks that a tree is the same bytes from the same spec, that
// OpenTree finds it again, and that ChangeFiles edits 1 % of the files
// and variant 0 writes them back as generated.
func TestTree(t *testing.T) {
	spec := TreeSpec{TextBytes: 2e6, MeanFileBytes: 5000, FilesPerFolder: 10}
	dir := t.TempDir()
	a, err := GenerateTree(filepath.Join(dir, "a"), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GenerateTree(filepath.Join(dir, "b"), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Files != 400 || a.Folders != 40 || a.TextBytes != b.TextBytes || a.Lines != b.Lines {
		t.Fatalf("trees: %+v and %+v", a, b)
	}
	if a.TextBytes < 1.6e6 || a.TextBytes > 2.4e6 {
		t.Errorf("text bytes %d, want about 2e6", a.TextBytes)
	}
	if OpenTree(a.Dir, spec) == nil {
		t.Error("OpenTree: the tree just generated is not found")
	}
	if OpenTree(a.Dir, TreeSpec{TextBytes: 3e6, MeanFileBytes: 5000, FilesPerFolder: 10}) != nil {
		t.Error("OpenTree: a tree of another spec is reused")
	}
	_, files := layout(a.Spec)
	depth := 0
	for _, f := range files {
		depth = max(depth, bytes.Count([]byte(f.rel), []byte("/")))
		x, err := os.ReadFile(filepath.Join(a.Root(), f.rel))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b.Root(), f.rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two trees of one spec (%v)", f.rel, err)
		}
	}
	if depth < 3 {
		t.Errorf("deepest file at depth %d, want nested folders", depth)
	}
	before, _ := os.ReadFile(filepath.Join(a.Root(), files[50].rel))
	changed, err := a.ChangeFiles(100, 1)
	if err != nil || len(changed) != 4 {
		t.Fatalf("ChangeFiles: %d files, %v", len(changed), err)
	}
	after, _ := os.ReadFile(filepath.Join(a.Root(), files[50].rel))
	if bytes.Equal(before, after) {
		t.Error("ChangeFiles left the file as it was")
	}
	if _, err := a.ChangeFiles(100, 0); err != nil {
		t.Fatal(err)
	}
	back, _ := os.ReadFile(filepath.Join(a.Root(), files[50].rel))
	if !bytes.Equal(before, back) {
		t.Error("ChangeFiles variant 0 did not restore the file")
	}
}
