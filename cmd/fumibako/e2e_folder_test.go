package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFolderCommands(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(filepath.Dir(f.root), "経理")
	os.MkdirAll(other, 0o755)
	f.mustRun("folder", "add", f.root)
	f.mustRun("folder", "add", other, "--name", "経理2024")
	out := f.mustRun("folder", "list")
	if !strings.Contains(out, "営業") || !strings.Contains(out, "経理2024") {
		t.Fatalf("folder list:\n%s", out)
	}
	f.write("a.txt", "りんご\n")
	f.mustRun("index")
	f.mustRun("folder", "rename", "営業", "営業部")
	if _, ok := f.list().Lookup(`営業部\a.txt`); !ok {
		t.Errorf("ingest list not renamed")
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "content", "営業部")); err != nil {
		t.Errorf("content folder not renamed: %v", err)
	}
	out = f.mustRun("index")
	if !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("rename caused a re-ingest:\n%s", out)
	}
	f.mustRun("folder", "disable", "経理2024")
	var s struct {
		Roots []struct {
			Name    string
			Path    string
			Enabled *bool
		} `json:"targetFolders"`
	}
	data, _ := os.ReadFile(filepath.Join(f.ws, "settings.json"))
	if err := json.Unmarshal(data, &s); err != nil || len(s.Roots) != 2 || s.Roots[0].Name != "営業部" || s.Roots[1].Enabled == nil || *s.Roots[1].Enabled {
		t.Fatalf("settings.json = %s (%v)", data, err)
	}
	f.mustRun("folder", "remove", "営業部")
	f.mustRun("folder", "enable", "経理2024")
	out = f.mustRun("index")
	if !strings.Contains(out, "のインデックスを削除しました。") {
		t.Errorf("removed root's index not deleted:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "content", "営業部")); !os.IsNotExist(err) {
		t.Errorf("content of a removed root survived")
	}

	// Refusals exit 1 with the Japanese message.
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"folder", "add", other}, "が既にあります。"},
		{[]string{"folder", "add", f.ws}, "ワークスペース"},
		{[]string{"folder", "add", f.root, "--name", "NUL"}, "使えません"},
		{[]string{"folder", "rename", "無い", "x"}, "ありません"},
	} {
		_, errOut, code := f.run(tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q, want 1 and %q", tc.args, code, errOut, tc.msg)
		}
	}

	// A broken settings file is moved aside and reported.
	os.WriteFile(filepath.Join(f.ws, "settings.json"), []byte("{broken"), 0o644)
	_, errOut, _ := f.run("folder", "list")
	if !strings.Contains(errOut, "設定ファイルが壊れていたため、既定の設定で起動しました。") {
		t.Errorf("broken settings not reported: %q", errOut)
	}
	matches, _ := filepath.Glob(filepath.Join(f.ws, "settings.json.broken-*"))
	if len(matches) != 1 {
		t.Errorf("broken settings files: %v", matches)
	}
	_, errOut, code := f.run("index")
	if code != 1 || !strings.Contains(errOut, "インデックスが登録されていません。") {
		t.Errorf("index without roots: exit %d, %q", code, errOut)
	}
}
