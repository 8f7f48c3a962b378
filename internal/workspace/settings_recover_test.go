package workspace_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestSalvageSettings(t *testing.T) {
	off := false
	a := workspace.Root{Name: "営業", Path: "/srv/営業"}
	b := workspace.Root{Name: "経理", Path: "/srv/経理", Enabled: &off}
	for _, tt := range []struct {
		name, in string
		want     []workspace.Root
		workers  int
	}{
		{"missing comma", `{"targetFolders": [{"name": "営業", "path": "/srv/営業"} {"name": "経理", "path": "/srv/経理", "enabled": false}], "workers": 3}`, []workspace.Root{a, b}, 3},
		{"cut in the second root", `{"targetFolders": [{"name": "営業", "path": "/srv/営業"}, {"name": "経理", "pa`, []workspace.Root{a}, 0},
		{"trailing comma", "\uFEFF" + `{"targetFolders": [{"name": "営業", "path": "/srv/営業"},]}`, []workspace.Root{a}, 0},
		{"duplicates and bad names", `{"targetFolders": [{"name": "営業", "path": "/srv/営業"}, {"name": "営業", "path": "/x"}, {"name": "a:b", "path": "/y"}, {"path": "/z"}, {"name": "q", "path": "/srv/営業"}, {"name": "r", "path": ""}]`, []workspace.Root{a}, 0},
		{"garbage", "\x00\x01{{{", nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := workspace.SalvageSettings([]byte(tt.in))
			if !reflect.DeepEqual(got.Roots, tt.want) || got.Workers != tt.workers {
				t.Errorf("SalvageSettings(%q) = %+v, want roots %+v, workers %d", tt.in, got, tt.want, tt.workers)
			}
		})
	}
}

// TestIssue15LoadRecovers: a broken file is moved aside, the roots read
// from it are saved and returned, and the message says so in Japanese.
func TestIssue15LoadRecovers(t *testing.T) {
	ws, _ := workspace.Open(filepath.Join(t.TempDir(), "ws"))
	broken := "{\n  \"targetFolders\": [\n    {\"name\": \"営業\", \"path\": \"/srv/営業\"}\n    {\"name\": \"経理\", \"path\": \"/srv/経理\"}\n  ]\n}\n"
	os.WriteFile(ws.SettingsPath(), []byte(broken), 0o644)
	s, err := ws.LoadSettings()
	var b *workspace.BrokenSettingsError
	if !errors.As(err, &b) || len(s.Roots) != 2 || len(b.Recovered) != 2 {
		t.Fatalf("LoadSettings = %+v, %v", s, err)
	}
	want := "設定ファイルが壊れていたため、読み取れたインデックスの登録 2 件（営業、経理）を戻して起動しました。（壊れていたファイルは " + b.MovedTo +
		" に移しました。原因: 4 行目 5 文字目が JSON の書き方として正しくありません）インデックスは削除していません。"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message =\n%s\nwant prefix\n%s", err.Error(), want)
	}
	if moved, _ := os.ReadFile(b.MovedTo); string(moved) != broken {
		t.Errorf("moved-aside file = %q", moved)
	}
	again, err := ws.LoadSettings()
	if err != nil || !reflect.DeepEqual(again.Roots, s.Roots) {
		t.Errorf("saved recovery = %+v, %v", again, err)
	}
}

// TestIssue15Removals: only an explicit removal marks an index for
// deletion; adding or renaming a root to that name again cancels it.
func TestIssue15Removals(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"共有/営業", "other/営業"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	ws, _ := workspace.Open(filepath.Join(base, "ws"))
	s := &workspace.Settings{}
	r, _ := s.AddRoot(filepath.Join(base, "共有/営業"), "", ws.Root, nil)
	if _, err := s.RemoveRoot(r.Name); err != nil || !s.IsRemoved("営業") {
		t.Fatalf("RemoveRoot: %v, removed %v", err, s.Removed)
	}
	data, _ := json.Marshal(s)
	back, err := workspace.ParseSettings(data)
	if err != nil || !back.IsRemoved("営業") || back.Removed[0].Path != r.Path {
		t.Fatalf("removal not saved: %s", data)
	}
	// Added again at the same path: the known index's name comes back and
	// the removal is cancelled.
	known := []workspace.KnownIndex{{Name: "営業", Path: r.Path}}
	again, err := s.AddRoot(filepath.Join(base, "共有/営業"), "", ws.Root, known)
	if err != nil || again.Name != "営業" || s.IsRemoved("営業") || len(s.Removed) != 0 {
		t.Fatalf("AddRoot again = %+v, %v, removed %v", again, err, s.Removed)
	}
	// Another folder of the same name does not take the known index.
	s2 := &workspace.Settings{}
	r2, err := s2.AddRoot(filepath.Join(base, "other/営業"), "", ws.Root, known)
	if err != nil || r2.Name != "営業(2)" {
		t.Fatalf("other 営業 = %+v, %v, want 営業(2)", r2, err)
	}
	// A Removed entry naming a root is void when read.
	back, _ = workspace.ParseSettings([]byte(`{"targetFolders": [{"name": "営業", "path": "/x"}], "removedFolders": [{"name": "営業", "path": "/x"}, {"name": "経理", "path": "/y"}]}`))
	if back.IsRemoved("営業") || !back.IsRemoved("経理") || len(back.Removed) != 1 {
		t.Errorf("Removed after parse = %+v", back.Removed)
	}
}

func TestRestoreRoot(t *testing.T) {
	s := &workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: "/srv/営業"}}}
	s.MarkRemoved(workspace.Root{Name: "経理", Path: "/srv/経理"})
	for _, tt := range []struct {
		r   workspace.Root
		msg string
	}{
		{workspace.Root{Name: "営業", Path: "/srv/別"}, "既に使われています"},
		{workspace.Root{Name: "別", Path: "/srv/営業"}, "が既にあります"},
		{workspace.Root{Name: "中", Path: "/srv/営業/中"}, "重なるため"},
		{workspace.Root{Name: "a/b", Path: "/srv/ab"}, "使えません"},
		{workspace.Root{Name: "経理", Path: "/srv/経理"}, ""},
	} {
		err := s.RestoreRoot(tt.r)
		if tt.msg == "" {
			if err != nil || s.IsRemoved("経理") {
				t.Errorf("RestoreRoot(%+v) = %v, removed %v", tt.r, err, s.Removed)
			}
			continue
		}
		var fe *workspace.FolderError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("RestoreRoot(%+v) = %v, want %q", tt.r, err, tt.msg)
		}
	}
}

// FuzzSalvageSettings: any bytes give settings that ParseSettings accepts
// once written, and never a panic.
func FuzzSalvageSettings(f *testing.F) {
	f.Add([]byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"} {"name": "経理", "path": "/srv/経理", "enabled": false}], "workers": 3}`))
	f.Add([]byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"}, {"name": "経理", "pa`))
	f.Add([]byte("\uFEFF{{{\"path\":\"x\",\"name\":\"a\"}}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := workspace.SalvageSettings(data)
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := workspace.ParseSettings(out)
		if err != nil || len(back.Roots) != len(s.Roots) {
			t.Fatalf("ParseSettings(SalvageSettings(%q)) = %+v, %v", data, back, err)
		}
	})
}

// TestNewestMovedAside: the newest file MoveAside made of a path, by
// modification time; other files beside it do not count.
func TestNewestMovedAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if got := workspace.NewestMovedAside(path); got != "" {
		t.Errorf("NewestMovedAside with none = %q", got)
	}
	t0 := time.Date(2024, 4, 1, 9, 0, 0, 0, time.UTC)
	for i, name := range []string{"settings.json.broken-20240401-090000", "settings.json.broken-20240301-090000-2", "settings.json.broken-20240201-090000", "settings.json.bak", "other.json.broken-20250101-000000"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := t0.Add(time.Duration(i) * time.Hour) // written later in this order
		if i >= 3 {
			mod = t0.Add(48 * time.Hour) // newer, but not settings.json's
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := workspace.NewestMovedAside(path), filepath.Join(dir, "settings.json.broken-20240201-090000"); got != want {
		t.Errorf("NewestMovedAside = %q, want %q", got, want)
	}
}
