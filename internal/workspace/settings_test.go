package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestSettingsRoundTripAndBroken(t *testing.T) {
	ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ws.LoadSettings()
	if err != nil || len(s.Roots) != 0 {
		t.Fatalf("fresh settings = %+v, %v", s, err)
	}
	off := false
	s.Roots = []workspace.Root{{Name: "営業", Path: "/srv/営業"}, {Name: "経理", Path: "/srv/経理", Enabled: &off}}
	if err := ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	back, err := ws.LoadSettings()
	if err != nil || len(back.Roots) != 2 || !back.Roots[0].IsEnabled() || back.Roots[1].IsEnabled() {
		t.Fatalf("settings read back = %+v, %v", back, err)
	}
	for _, broken := range []string{`{"targetFolders": [`, `{"targetFolders":[{"name":"a:b","path":"/x"}]}`, `{"targetFolders":[{"name":"a","path":""}]}`, `[] []`} {
		os.WriteFile(ws.SettingsPath(), []byte(broken), 0o644)
		s, err := ws.LoadSettings()
		var b *workspace.BrokenSettingsError
		if !errors.As(err, &b) || s == nil || len(s.Roots) != 0 {
			t.Fatalf("LoadSettings(%q) = %+v, %v, want defaults and a BrokenSettingsError", broken, s, err)
		}
		if data, _ := os.ReadFile(b.MovedTo); string(data) != broken || !strings.Contains(b.MovedTo, "settings.json.broken-") {
			t.Fatalf("broken file moved to %s holding %q", b.MovedTo, data)
		}
		if _, err := os.Stat(ws.SettingsPath()); !os.IsNotExist(err) {
			t.Fatalf("broken settings.json still in place")
		}
		if !strings.HasPrefix(err.Error(), workspace.MsgSettingsBroken) {
			t.Errorf("message = %q", err.Error())
		}
	}
}

func TestAddRootRefusals(t *testing.T) {
	base := t.TempDir()
	wsDir := filepath.Join(base, "ws")
	ws, _ := workspace.Open(wsDir)
	for _, d := range []string{"共有/営業", "other/営業", "nest/inner", "a:b"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.WriteFile(filepath.Join(base, "file.txt"), []byte("x"), 0o644)
	s := &workspace.Settings{}
	r, err := s.AddRoot(filepath.Join(base, "共有/営業"), "", ws.Root, nil)
	if err != nil || r.Name != "営業" {
		t.Fatalf("AddRoot = %+v, %v", r, err)
	}
	r, err = s.AddRoot(filepath.Join(base, "other/営業"), "", ws.Root, nil)
	if err != nil || r.Name != "営業(2)" {
		t.Fatalf("second 営業 = %+v, %v, want 営業(2)", r, err)
	}
	r, err = s.AddRoot(filepath.Join(base, "a:b"), "", ws.Root, []workspace.KnownIndex{{Name: "a：b"}})
	if err != nil || r.Name != "a：b(2)" {
		t.Fatalf("a:b = %+v, %v, want a：b(2)", r, err)
	}
	tests := []struct{ path, name, msg string }{
		{filepath.Join(base, "file.txt"), "", "フォルダではありません"},
		{filepath.Join(base, "共有/営業"), "", "が既にあります。"},
		{filepath.Join(base, "共有"), "", "重なるため登録できません"},
		{wsDir, "", "ワークスペース"},
		{base, "", "ワークスペース"},
		{filepath.Join(base, "nest"), "CON", "使えません"},
		{filepath.Join(base, "nest"), "x/y", "使えません"},
		{filepath.Join(base, "nest"), "営業", "既に使われています"},
		{filepath.Join(base, "nest"), " ", "インデックス名を入力してください。"},
		{"", "", "元のフォルダを指定してください。"},
	}
	for _, tt := range tests {
		_, err := s.AddRoot(tt.path, tt.name, ws.Root, nil)
		var fe *workspace.FolderError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("AddRoot(%q, %q) = %v, want a FolderError containing %q", tt.path, tt.name, err, tt.msg)
		}
	}
	if err := s.RenameRoot("営業(2)", "営業"); err == nil {
		t.Errorf("rename onto a taken name succeeded")
	}
	if err := s.RenameRoot("営業(2)", "営業B"); err != nil {
		t.Errorf("rename: %v", err)
	}
	if err := s.SetEnabled("営業b", false); err != nil || s.Roots[1].IsEnabled() {
		t.Errorf("disable (case-insensitive) = %v", err)
	}
	if _, err := s.RemoveRoot("無い"); err == nil {
		t.Errorf("removing an unknown root succeeded")
	}
	// A folder that is not there now is registered, with a warning
	// (issue 30: a network drive not connected yet).
	none := filepath.Join(base, "none")
	r, err = s.AddRoot(none, "", ws.Root, nil)
	if err != nil || r.Name != "none" || r.Path != none {
		t.Errorf("AddRoot(missing) = %+v, %v, want registered", r, err)
	}
	if w := workspace.FolderWarning(none); !strings.Contains(w, "フォルダが今は見つかりません") {
		t.Errorf("FolderWarning(missing) = %q", w)
	}
	if w := workspace.FolderWarning(base); w != "" {
		t.Errorf("FolderWarning(existing) = %q", w)
	}
}
