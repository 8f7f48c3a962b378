package workspace_test

import (
	"slices"
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
		{"another case", `"readonly"`, "readOnly", false},
		{"spaces around", `" new "`, "new", false},
		{"empty text", `""`, "", true},
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

// TestParseOpenMode: the one check of an openMode value that the
// settings reader, the settings key, desktop.ParseMode (the CLI's --mode,
// the web UI's open menu) all use.
func TestParseOpenMode(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"", "normal", true},
		{"normal", "normal", true},
		{"readOnly", "readOnly", true},
		{"READONLY", "readOnly", true},
		{" new\t", "new", true},
		{"edit", "normal", false},
		{"読み取り専用", "normal", false},
	} {
		if got, ok := workspace.ParseOpenMode(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseOpenMode(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	k, _ := workspace.LookupSetting("openMode")
	for _, m := range workspace.OpenModes {
		if v, err := k.Check(strings.ToUpper(m)); err != nil || v != m {
			t.Errorf("openMode key Check(%q) = %v, %v, want %q", strings.ToUpper(m), v, err, m)
		}
	}
}

// FuzzParseSettingsOpenMode: any bytes give an error or settings whose
// openMode is empty or one of the three, and that value survives a save.
func FuzzParseSettingsOpenMode(f *testing.F) {
	f.Add([]byte(`{"targetFolders": [], "openMode": "readOnly"}`))
	f.Add([]byte(`{"openMode": 7, "searchExcludes": 3}`))
	f.Add([]byte(`{"openMode": "new", "openMode": "x"}`))
	f.Add([]byte(`{"openMode": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := workspace.ParseSettings(data)
		if err != nil {
			return
		}
		if s.OpenMode != "" && !slices.Contains(workspace.OpenModes, s.OpenMode) {
			t.Fatalf("ParseSettings(%q).OpenMode = %q", data, s.OpenMode)
		}
		ws, err := workspace.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			return // a root the writer refuses
		}
		back, err := ws.LoadSettings()
		if err != nil || back.OpenMode != s.OpenMode {
			t.Fatalf("openMode %q read back as %q (%v)", s.OpenMode, back.OpenMode, err)
		}
	})
}
