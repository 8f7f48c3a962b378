package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// jsonHits parses search --json output.
func jsonHits(t *testing.T, out string) []map[string]any {
	t.Helper()
	var hits []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var h map[string]any
		if err := json.Unmarshal([]byte(line), &h); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		hits = append(hits, h)
	}
	return hits
}

// TestIssue18Freshness: every hit carries the file's modification time as
// indexed, and --json marks a hit whose file was edited or deleted since;
// a file touched back to its indexed time (unchanged) is not marked.
func TestIssue18Freshness(t *testing.T) {
	f := newFixture(t)
	f.write("edit.txt", "りんご 編集する\n")
	f.write("gone.txt", "りんご 消す\n")
	f.write("touch.txt", "りんご 触るだけ\n")
	f.write("keep.txt", "りんご そのまま\n")
	old := time.Date(2024, 4, 1, 9, 30, 0, 0, time.Local)
	for _, n := range []string{"edit.txt", "gone.txt", "touch.txt", "keep.txt"} {
		os.Chtimes(filepath.Join(f.root, n), old, old)
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")

	f.write("edit.txt", "りんご 編集した\n") // new time and new size
	os.Remove(filepath.Join(f.root, "gone.txt"))
	touch := filepath.Join(f.root, "touch.txt")
	os.Chtimes(touch, time.Now(), old) // read, not changed: the time as indexed

	out := f.mustRun("search", "--json", "--no-names", "りんご")
	got := map[string]string{}
	for _, h := range jsonHits(t, out) {
		p := h["path"].(string)
		fr, _ := h["freshness"].(string)
		got[p] = fr
		mod, err := time.Parse(time.RFC3339Nano, h["modified"].(string))
		if err != nil || !mod.Equal(old) {
			t.Errorf("%s: modified = %v, want %v (the time as indexed)", p, h["modified"], old)
		}
		if size := h["size"].(float64); size <= 0 {
			t.Errorf("%s: size = %v", p, size)
		}
	}
	want := map[string]string{"edit.txt": "changed", "gone.txt": "deleted", "touch.txt": "", "keep.txt": ""}
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			t.Errorf("%s: freshness %q (found %v), want %q", p, g, ok, w)
		}
	}
	// The table (piped) carries the time as a column.
	if out := f.mustRun("search", "--no-names", "そのまま"); !strings.Contains(out, "\t2024/04/01 09:30:00\t") {
		t.Errorf("table row lacks the modification time: %q", out)
	}
	// A touch that moves the time marks the file: the next run ingests it.
	os.Chtimes(touch, time.Now(), time.Now())
	for _, h := range jsonHits(t, f.mustRun("search", "--json", "--no-names", "触るだけ")) {
		if h["freshness"] != "changed" {
			t.Errorf("touched file: freshness %v, want changed", h["freshness"])
		}
	}
	// After the next run the hits are fresh again.
	f.mustRun("index")
	for _, h := range jsonHits(t, f.mustRun("search", "--json", "--no-names", "りんご")) {
		if h["freshness"] != nil {
			t.Errorf("after indexing again: %v freshness %v", h["path"], h["freshness"])
		}
	}
}

// TestIssue18FileNames: a word only in a file name (or folder) finds the
// file as a hit of kind ファイル名, before its content hits, with folding
// and regex; --name alone lists files; --no-names turns it off.
func TestIssue18FileNames(t *testing.T) {
	f := newFixture(t)
	f.write("旧システム移行.txt", "中身は関係ない\n")
	f.write("ＡＢＣ報告.txt", "abc の中身\n")
	f.write("2024/見積.txt", "見積 本文\n")
	f.write("メモ.txt", "ただのメモ\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")

	paths := func(args ...string) []string {
		t.Helper()
		out, errOut, code := f.run(append([]string{"search", "--json"}, args...)...)
		if code != 0 && code != 1 {
			t.Fatalf("search %v: exit %d %s", args, code, errOut)
		}
		var out2 []string
		for _, h := range jsonHits(t, out) {
			out2 = append(out2, h["kind"].(string)+":"+h["path"].(string))
		}
		return out2
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"旧システム"}, []string{"ファイル名:旧システム移行.txt"}},
		{[]string{"abc"}, []string{"ファイル名:ＡＢＣ報告.txt", "本文:ＡＢＣ報告.txt"}}, // width and case folded
		{[]string{"2024", "見積"}, []string{"ファイル名:2024\\見積.txt"}},       // the folder counts, all words
		{[]string{"見積", "-2024"}, []string{"本文:2024\\見積.txt"}},
		{[]string{"--regex", "^旧.*移行"}, []string{"ファイル名:旧システム移行.txt"}},
		{[]string{"--no-names", "旧システム"}, nil},
		{[]string{"--name", "*.txt;!*メモ*"}, []string{"ファイル名:旧システム移行.txt", "ファイル名:ＡＢＣ報告.txt", "ファイル名:2024\\見積.txt"}},
	} {
		got := paths(tt.args...)
		if !slices.Equal(got, tt.want) {
			t.Errorf("search %q = %q, want %q", tt.args, got, tt.want)
		}
	}
	if _, errOut, code := f.run("search", "--name", "*.txt"); code != 0 {
		t.Errorf("--name alone: exit %d %s", code, errOut)
	}
}
