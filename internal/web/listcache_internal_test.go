package web

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestIngestListCached: polls of an unchanged list share one parse, a
// rewritten list is read again, and a missing list reads as empty.
func TestIngestListCached(t *testing.T) {
	ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := s.ingestList()
	if err != nil || len(empty.Rows) != 0 {
		t.Fatalf("missing list: %v rows, %v", empty, err)
	}
	folders := []ingestlist.Folder{{Path: "/src/営業", Name: "営業"}}
	row := func(name string) ingestlist.Row {
		return ingestlist.Row{RelPath: `営業\` + name, Updated: "2026/12/01 10:00:00", Size: 3, State: ingestlist.Done, HasTSVCount: true, TSVCount: 1}
	}
	write := func(rows ...ingestlist.Row) {
		t.Helper()
		if err := ingestlist.WriteFile(ws.IngestList(), folders, rows); err != nil {
			t.Fatal(err)
		}
	}
	write(row("a.txt"))
	first, err := s.ingestList()
	if err != nil || len(first.Rows) != 1 {
		t.Fatalf("first read: %d rows, %v", len(first.Rows), err)
	}
	again, _ := s.ingestList()
	if again != first {
		t.Error("an unchanged list was parsed again")
	}
	write(row("a.txt"), row("b.txt"))
	// A rewrite within the file system's time resolution still differs in size.
	os.Chtimes(ws.IngestList(), time.Now(), time.Now().Add(time.Second))
	second, err := s.ingestList()
	if err != nil || len(second.Rows) != 2 {
		t.Fatalf("after the rewrite: %d rows, %v", len(second.Rows), err)
	}
	if _, ok := second.Lookup(`営業\b.txt`); !ok {
		t.Error("the new row is not found")
	}
}
