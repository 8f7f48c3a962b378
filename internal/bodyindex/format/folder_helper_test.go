package format

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// testFile is one source file for writeFolder.
type testFile struct {
	name   string
	places []extract.Place
}

// writeFolder writes dir's body index holding files (sorted as the file
// table is) with the encoder and the manifest writer alone, the way
// package bodyindex's Publish writes fresh files but in one chunk: the
// format's tests need no life cycle. It returns dir.
func writeFolder(t testing.TB, dir string, files ...testFile) string {
	t.Helper()
	t.Cleanup(ReleaseMappings)
	var refs []PartRef
	enc := NewEncoder(func(p BuiltPart) error {
		refs = append(refs, PartRef{ID: p.ID, Size: int64(len(p.Data)), FirstFile: p.FirstFile, FirstLine: p.FirstLine, LastFile: p.LastFile, EndLine: p.EndLine})
		return os.WriteFile(filepath.Join(dir, PartName(p.ID)), p.Data, 0o644)
	})
	texts := make([]FileText, len(files))
	for i, f := range files {
		texts[i] = FileText{Name: f.name, Index: i, Places: f.places}
	}
	enc.Encode(texts)
	enc.Release()
	if enc.Err != nil {
		t.Fatal(enc.Err)
	}
	entries := make([]FileEntry, len(files))
	for i, f := range files {
		n := enc.Counts[i]
		entries[i] = FileEntry{Name: f.name, Places: len(f.places), Lines: n.Lines, TextBytes: n.Text, FoldedBytes: enc.Folded[i]}
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestName), EncodeManifest(refs, entries), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
