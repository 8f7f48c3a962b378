package workspace_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestOpenModeTolerant: openMode is read when it is one of the three
// names; anything else is left out with a notice, and the roots and the
// rest of the file are kept. A saved mode reads back.
func TestOpenModeTolerant(t *testing.T) {
	const roots = `"targetFolders": [{"name": "営業", "path": "/srv/営業"}]`
	for _, tt := range []struct {
		name, value, want string
		notice            bool
	}{
		{"absent", "", "", false},
		{"normal", `"normal"`, "normal", false},
		{"readOnly", `"readOnly"`, "readOnly", false},
		{"new", `"new"`, "new", false},
		{"unknown name", `"edit"`, "", true},
		{"wrong case", `"readonly"`, "", true},
		{"number", `3`, "", true},
		{"object", `{"a": 1}`, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := "{" + roots
			if tt.value != "" {
				data += `, "openMode": ` + tt.value
			}
			data += "}"
			s, err := workspace.ParseSettings([]byte(data))
			if err != nil {
				t.Fatalf("ParseSettings(%s) = %v", data, err)
			}
			if s.OpenMode != tt.want || len(s.Roots) != 1 {
				t.Errorf("OpenMode = %q, roots %d; want %q, 1", s.OpenMode, len(s.Roots), tt.want)
			}
			if got := strings.Contains(s.Ignored, "openMode"); got != tt.notice {
				t.Errorf("Ignored = %q, want a notice: %v", s.Ignored, tt.notice)
			}
		})
	}
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.SaveSettings(&workspace.Settings{OpenMode: "readOnly"}); err != nil {
		t.Fatal(err)
	}
	s, err := ws.LoadSettings()
	if err != nil || s.OpenMode != "readOnly" {
		t.Errorf("LoadSettings after save = %q, %v", s.OpenMode, err)
	}
}
