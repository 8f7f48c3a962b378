package indexer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestConfirmationListsDeletion (issue 30): a removed root's index is
// listed as 削除予定 in the confirmation and deleted only when the run goes
// ahead; declining keeps it, with or without other roots.
func TestConfirmationListsDeletion(t *testing.T) {
	for _, tt := range []struct {
		name    string
		roots   []workspace.Root
		proceed bool
	}{
		{"declined", []workspace.Root{{Name: "src", Path: "src"}}, false},
		{"confirmed", []workspace.Root{{Name: "src", Path: "src"}}, true},
		{"confirmed, no root left", nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			ws, err := workspace.Open(filepath.Join(base, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			var roots []workspace.Root
			for _, r := range tt.roots {
				r.Path = filepath.Join(base, r.Path)
				os.MkdirAll(r.Path, 0o755)
				roots = append(roots, r)
			}
			old := filepath.Join(ws.ContentRoot(), "旧", "sub")
			os.MkdirAll(old, 0o755)
			os.WriteFile(filepath.Join(old, "part"), []byte("x"), 0o644)
			rows := []ingestlist.Row{{RelPath: `旧\sub\a.txt`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Done, IngestedAt: "2024/01/01 00:00:00"}}
			if err := ingestlist.WriteFile(ws.IngestList(), []ingestlist.Folder{{Name: "旧", Path: "/old"}}, rows); err != nil {
				t.Fatal(err)
			}
			s := &workspace.Settings{Roots: roots, Removed: []workspace.Root{{Name: "旧", Path: "/old"}}}
			var asked []PlanRow
			sum, err := Run(Options{Workspace: ws, Settings: s, Body: &nopBody{},
				Confirm: func(p []PlanRow) Answer { asked = p; return Answer{Proceed: tt.proceed} }})
			if err != nil {
				t.Fatalf("Run = %v", err)
			}
			if !slices.ContainsFunc(asked, func(r PlanRow) bool { return r.Index == "旧" && r.Kind == "削除予定" && r.Path == "/old" }) {
				t.Errorf("confirmation rows = %+v, want 旧 削除予定", asked)
			}
			_, statErr := os.Stat(filepath.Join(ws.ContentRoot(), "旧"))
			l, err := ingestlist.ReadFile(ws.IngestList())
			if err != nil {
				t.Fatal(err)
			}
			_, hasRow := l.Lookup(`旧\sub\a.txt`)
			if tt.proceed {
				if !os.IsNotExist(statErr) || hasRow || !slices.Equal(sum.Freed, []string{"旧"}) {
					t.Errorf("confirmed: folder %v, row %v, freed %v; want all gone", statErr, hasRow, sum.Freed)
				}
			} else if statErr != nil || !hasRow {
				t.Errorf("declined: folder %v, row %v; want both kept", statErr, hasRow)
			}
		})
	}
}
