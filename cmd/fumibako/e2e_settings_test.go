package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestIssue15BrokenSettingsKeepsIndex: a settings file broken beyond
// reading costs no index. The run stops without roots, the index stays and
// is still searched by the CLI, re-adding the folder gets its old name back
// and nothing is ingested again or deleted.
func TestIssue15BrokenSettingsKeepsIndex(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root)
	f.write("a.txt", "りんご\n")
	f.write("sub/b.txt", "りんごとみかん\n")
	f.mustRun("index")
	settings := filepath.Join(f.ws, "settings.json")
	os.WriteFile(settings, []byte(`{"targetFolders": [{"name": "営業", "pa`), 0o644) // cut
	_, errOut, code := f.run("index")
	if code != 1 || !strings.Contains(errOut, "インデックスが登録されていません。") {
		t.Fatalf("index: exit %d %q", code, errOut)
	}
	out, errOut, code := f.run("search", "りんご")
	if code != 0 || strings.Count(out, "りんご") < 2 {
		t.Errorf("the CLI does not search the kept index: exit %d\n%s\n%s", code, out, errOut)
	}
	out = f.mustRun("folder", "list")
	if !strings.Contains(out, "営業") || !strings.Contains(out, "folder restore で戻せます") {
		t.Errorf("folder list does not show the kept index:\n%s", out)
	}
	out = f.mustRun("folder", "add", f.root)
	if !strings.Contains(out, "「営業」") {
		t.Fatalf("re-added folder did not get its old name:\n%s", out)
	}
	out = f.mustRun("index")
	if !strings.Contains(out, "取り込みが必要なファイルはありません。") || strings.Contains(out, "削除しました") {
		t.Errorf("re-adding the folder re-ingested or deleted:\n%s", out)
	}
}

// TestIssue15BrokenSettingsRecovered: the roots that can still be read
// from a broken file are back at once, with a message that says so.
func TestIssue15BrokenSettingsRecovered(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(filepath.Dir(f.root), "経理")
	os.MkdirAll(other, 0o755)
	f.mustRun("folder", "add", f.root)
	f.mustRun("folder", "add", other)
	f.mustRun("folder", "disable", "経理")
	f.write("a.txt", "りんご\n")
	f.mustRun("index")
	settings := filepath.Join(f.ws, "settings.json")
	data, _ := os.ReadFile(settings)
	// A hand edit that breaks the JSON after the roots (a missing comma).
	broken := strings.Replace(string(data), "\n}", "\n  \"workers\": 2\n  \"fileTimeoutMinutes\": 5\n}", 1)
	os.WriteFile(settings, []byte(broken), 0o644)
	out := f.mustRun("index")
	if !strings.Contains(out, "読み取れたインデックスの登録 2 件（営業、経理）を戻して起動しました。") ||
		!strings.Contains(out, "行目") || !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("index after a broken settings file:\n%s", out)
	}
	ws, _ := workspace.Open(f.ws)
	s, err := ws.LoadSettings()
	if err != nil || len(s.Roots) != 2 || s.Roots[1].IsEnabled() || s.Workers != 2 || s.FileTimeoutMinutes != 5 {
		t.Errorf("recovered settings = %+v, %v", s, err)
	}
	if m, _ := filepath.Glob(settings + ".broken-*"); len(m) != 1 {
		t.Errorf("moved-aside files: %v", m)
	}
}

// TestIssue15LostRootKeptAndRestored: an index whose root is gone from the
// settings without a folder remove is kept, reported and searchable; folder
// restore brings the root back; folder remove of the kept index deletes it.
func TestIssue15LostRootKeptAndRestored(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(filepath.Dir(f.root), "経理")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "c.txt"), []byte("ぶどう\n"), 0o644)
	f.mustRun("folder", "add", f.root)
	f.mustRun("folder", "add", other)
	f.write("a.txt", "りんご\n")
	f.mustRun("index")
	settings := filepath.Join(f.ws, "settings.json")
	good, _ := os.ReadFile(settings)
	// The settings lose 営業 (an older copy put back, a hand edit).
	os.WriteFile(settings, []byte(`{"targetFolders": [{"name": "経理", "path": "`+other+`"}]}`), 0o644)
	out := f.mustRun("index")
	content := filepath.Join(f.ws, "work", "store", "content", "営業")
	if strings.Contains(out, "削除しました") || !strings.Contains(out, "「営業」") || !strings.Contains(out, "削除せずに残しました") {
		t.Errorf("index with a lost root:\n%s", out)
	}
	if _, err := os.Stat(content); err != nil {
		t.Fatalf("the lost root's index was deleted: %v", err)
	}
	if _, ok := f.list().Lookup(`営業\a.txt`); !ok {
		t.Errorf("the lost root's rows were dropped")
	}
	if out, _, _ := f.run("search", "りんご"); !strings.Contains(out, "a.txt") {
		t.Errorf("kept index not searched:\n%s", out)
	}
	out = f.mustRun("folder", "restore", "--list")
	if !strings.Contains(out, "戻せるインデックス: 「営業」 "+f.root) {
		t.Errorf("folder restore --list:\n%s", out)
	}
	out = f.mustRun("folder", "restore")
	if !strings.Contains(out, "インデックスを戻しました: 「営業」 "+f.root) {
		t.Errorf("folder restore:\n%s", out)
	}
	if out = f.mustRun("index"); !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("index after restore:\n%s", out)
	}

	// An explicit remove of a kept index deletes it.
	os.WriteFile(settings, good, 0o644)
	os.WriteFile(settings, []byte(`{"targetFolders": [{"name": "経理", "path": "`+other+`"}]}`), 0o644)
	f.mustRun("folder", "remove", "営業")
	out = f.mustRun("index")
	if !strings.Contains(out, "登録を外したフォルダ（"+f.root+"）のインデックスを削除しました。") {
		t.Errorf("explicit remove did not delete:\n%s", out)
	}
	if _, err := os.Stat(content); !os.IsNotExist(err) {
		t.Errorf("removed index survived: %v", err)
	}
	if out, _, _ := f.run("search", "りんご"); strings.Contains(out, "a.txt") {
		t.Errorf("removed index still searched:\n%s", out)
	}
}
