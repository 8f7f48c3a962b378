package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIssue32LostIndexCount: an index whose manifest cannot be read is
// removed, and the line says how many files are ingested again (it said
// 0 件 while one was), and they are.
func TestIssue32LostIndexCount(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	manifest := filepath.Join(f.ws, "work", "store", "content", "営業", ".fumibako-index")
	if _, err := os.Stat(manifest); err != nil {
		t.Fatalf("no manifest after a run: %v", err)
	}
	if err := os.WriteFile(manifest, []byte("not a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := f.mustRun("index", "--plain")
	log, _ := os.ReadFile(filepath.Join(f.ws, "work", "indexing_log.txt"))
	if !strings.Contains(out+string(log), "（1 件のファイルは取り込み直します）") {
		t.Errorf("lost index line lacks the count of 1:\n%s\n%s", out, log)
	}
	if out, _, code := f.run("search", "りんご"); code != 0 || !strings.Contains(out, "a.txt") {
		t.Errorf("the file was not ingested again: exit %d\n%s", code, out)
	}
}

// TestIssue32ExportToFolder: --export naming a folder says it is a
// folder, not that another app holds the file.
func TestIssue32ExportToFolder(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	dir := t.TempDir()
	_, errOut, code := f.run("search", "りんご", "--export", dir)
	if code != 1 || !strings.Contains(errOut, "＜エラー＞ 「"+dir+"」はフォルダです。") || strings.Contains(errOut, "ほかのアプリ") {
		t.Errorf("export to a folder: exit %d\n%s", code, errOut)
	}
}

// TestIssue32FolderSuggestion: a folder command naming an index that is
// not registered suggests the nearest registered name.
func TestIssue32FolderSuggestion(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root, "--name", "営業部")
	_, errOut, code := f.run("folder", "disable", "営業")
	if code != 1 || !strings.Contains(errOut, "＜エラー＞ インデックス「営業」はありません。「営業部」のことですか？") {
		t.Errorf("folder disable 営業: exit %d\n%s", code, errOut)
	}
}
