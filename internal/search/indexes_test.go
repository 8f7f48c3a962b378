package search_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestIssue15Indexes: the one list of searched indexes (CLI and web UI):
// roots first, then kept indexes without a root, never a removed one.
func TestIssue15Indexes(t *testing.T) {
	content := t.TempDir()
	for _, d := range []string{"営業", "経理", "残った", "削除予約", "a.b.", ".old-営業"} {
		os.MkdirAll(filepath.Join(content, d), 0o755)
	}
	os.WriteFile(filepath.Join(content, ".summary-営業"), []byte("x"), 0o644)
	s := &workspace.Settings{Roots: []workspace.Root{{Name: "経理", Path: "/srv/経理"}, {Name: "営業", Path: "/srv/営業"}}}
	s.MarkRemoved(workspace.Root{Name: "削除予約"})
	got := search.Indexes(content, s)
	want := []search.Index{{Name: "経理", RootPath: "/srv/経理", Source: "/srv/経理"}, {Name: "営業", RootPath: "/srv/営業", Source: "/srv/営業"}, {Name: "残った"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Indexes = %+v, want %+v", got, want)
	}
}
