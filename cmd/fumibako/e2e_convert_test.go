package main

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertOldIndex upgrades a workspace whose body indexes are of
// format version 3 (written by the test binary with
// FUMIBAKO_TEST_BODY_VERSION=3): the next index run converts every folder
// in place, logging it, with nothing ingested again; a run killed between
// two conversions leaves a workspace that the following run finishes; and
// searches then use the second folding (見積書 finds `見 積 書`).
func TestConvertOldIndex(t *testing.T) {
	f := newFixture(t)
	for _, d := range []string{"a", "b", "c", "d"} {
		f.write(d+"/memo.txt", "御 見 積 書 "+d+"\nサーバー構成\n")
	}
	f.mustRun("folder", "add", f.root)
	f.env = []string{"FUMIBAKO_TEST_BODY_VERSION=3"}
	f.mustRun("index")
	if v := manifestVersions(t, f.ws); v[3] != 4 || len(v) != 1 {
		t.Fatalf("versions after the old run: %v, want 4 folders of version 3", v)
	}
	before := f.list()

	f.env = []string{"FUMIBAKO_TEST_CRASH_AT=after-rebuild:2"}
	if _, _, code := f.run("index"); code == 0 {
		t.Fatal("the run to be killed after the second conversion finished")
	}
	if v := manifestVersions(t, f.ws); v[4] != 2 || v[3] != 2 {
		t.Fatalf("versions after the kill: %v, want 2 converted and 2 old", v)
	}
	f.env = nil
	f.mustRun("index", "--plain")
	if v := manifestVersions(t, f.ws); v[4] != 4 || len(v) != 1 {
		t.Fatalf("versions after the next run: %v, want 4 folders of version 4", v)
	}
	if !strings.Contains(f.log(), "古い形式のインデックスを新しい形式に変換しています（ファイルは取り込み直しません）…") ||
		!strings.Contains(f.log(), "古い形式のインデックスを作り直しました: 営業\\c") {
		t.Errorf("log lacks the conversion lines:\n%s", f.log())
	}
	after := f.list()
	for _, r := range before.Rows {
		a, ok := after.Lookup(r.RelPath)
		if !ok || a.IngestedAt != r.IngestedAt || a.State != r.State {
			t.Errorf("%s: row %+v after the conversion, was %+v: ingested again", r.RelPath, a, r)
		}
	}
	out := f.mustRun("search", "見積書", "--no-names")
	if n := strings.Count(out, "御 見 積 書"); n != 4 {
		t.Errorf("search 見積書 after the conversion: %d hits, want 4:\n%s", n, out)
	}
}

// manifestVersions counts the body-index folders of a workspace by format
// version (the manifest header: magic, then the version, little-endian).
func manifestVersions(t *testing.T, ws string) map[uint32]int {
	t.Helper()
	out := map[uint32]int{}
	err := filepath.WalkDir(filepath.Join(ws, "work", "store", "content"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != ".fumibako-index" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) < 12 {
			t.Fatalf("%s: %v", p, err)
		}
		out[binary.LittleEndian.Uint32(b[8:])]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
