package workspace_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestSearchExcludes: the search-target tree's exclusions are read from
// settings.json tolerantly (a malformed value or entry is left out with a
// notice, the rest of the file is used and nothing is moved aside), saved
// back, and dropped with the index they belong to when it is renamed or
// removed.
func TestSearchExcludes(t *testing.T) {
	roots := `"targetFolders": [{"name": "営業", "path": "/srv/営業"}, {"name": "経理", "path": "/srv/経理"}]`
	tests := []struct {
		name    string
		value   string
		want    []workspace.SearchExclude
		ignored bool
	}{
		{"absent", "", nil, false},
		{"null", `null`, nil, false},
		{"list", `[{"path": "営業\\2024", "subfolders": true}, {"path": "経理", "subfolders": false}]`,
			[]workspace.SearchExclude{{Path: `営業\2024`, Subfolders: true}, {Path: "経理"}}, false},
		{"subfolders missing means the whole folder", `[{"path": "営業"}]`, []workspace.SearchExclude{{Path: "営業", Subfolders: true}}, false},
		{"duplicates ignoring case", `[{"path": "a\\B", "subfolders": true}, {"path": "A\\b", "subfolders": true}]`,
			[]workspace.SearchExclude{{Path: `a\B`, Subfolders: true}}, false},
		{"not a list", `"営業"`, nil, true},
		{"bad entries left out", `[3, {"path": ""}, {"path": 5}, {"path": "経理", "subfolders": "yes"}]`,
			[]workspace.SearchExclude{{Path: "経理", Subfolders: true}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
			if err != nil {
				t.Fatal(err)
			}
			body := "{" + roots
			if tt.value != "" {
				body += `, "searchExcludes": ` + tt.value
			}
			if err := os.WriteFile(ws.SettingsPath(), []byte(body+"}"), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := ws.LoadSettings()
			if err != nil {
				t.Fatalf("LoadSettings: %v (a bad searchExcludes must not break the file)", err)
			}
			if len(st.Roots) != 2 || !slices.Equal(st.SearchExcludes, tt.want) {
				t.Fatalf("roots %d, searchExcludes %+v, want 2 and %+v", len(st.Roots), st.SearchExcludes, tt.want)
			}
			if got := st.Ignored != ""; got != tt.ignored || (got && !strings.Contains(st.Ignored, "searchExcludes")) {
				t.Errorf("Ignored = %q, want a notice: %v", st.Ignored, tt.ignored)
			}
			// Saved and read back unchanged, the notice gone.
			if err := ws.SaveSettings(st); err != nil {
				t.Fatal(err)
			}
			back, err := ws.LoadSettings()
			if err != nil || !slices.Equal(back.SearchExcludes, tt.want) || back.Ignored != "" {
				t.Errorf("read back: %+v, %q, %v", back.SearchExcludes, back.Ignored, err)
			}
		})
	}
}

func TestSearchExcludesFollowTheIndex(t *testing.T) {
	st, err := workspace.ParseSettings([]byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"}, {"name": "経理", "path": "/srv/経理"}],
		"searchExcludes": [{"path": "営業\\2024", "subfolders": true}, {"path": "営業"}, {"path": "営業2", "subfolders": true}, {"path": "経理\\古い", "subfolders": false}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RenameRoot("営業", "販売"); err != nil {
		t.Fatal(err)
	}
	want := []workspace.SearchExclude{{Path: "営業2", Subfolders: true}, {Path: `経理\古い`}}
	if !slices.Equal(st.SearchExcludes, want) {
		t.Errorf("after renaming 営業: %+v, want %+v", st.SearchExcludes, want)
	}
	if _, err := st.RemoveRoot("経理"); err != nil {
		t.Fatal(err)
	}
	want = want[:1]
	if !slices.Equal(st.SearchExcludes, want) {
		t.Errorf("after removing 経理: %+v, want %+v", st.SearchExcludes, want)
	}
}
