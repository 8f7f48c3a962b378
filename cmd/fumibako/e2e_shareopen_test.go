package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSharedIndexOpensWhereItsFilesLive is issue 30's whole story on the
// command line: one PC indexes a folder and exports the index; the folder
// is reached elsewhere on the colleague's PC (another path); the colleague
// imports the zip under another name, finds the same hits, cannot open a
// file until the index's folder is confirmed or re-pointed, and then opens
// each hit where it lives (a macro-capable one as a read-only copy).
func TestSharedIndexOpensWhereItsFilesLive(t *testing.T) {
	f := newFixture(t)
	f.write("2024/見積/a.txt", "りんごの見積\n")
	f.write("2024/議事録.txt", "見積の打ち合わせ\n")
	f.write("b.xlsm", "not really a workbook")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	zipPath := filepath.Join(t.TempDir(), "営業.zip")
	f.mustRun("export", "営業", "--out", zipPath)

	// The colleague's PC reaches the share at another path.
	there := filepath.Join(t.TempDir(), "共有", "営業")
	copyTree(t, f.root, there, func(string) bool { return true })
	ws2 := filepath.Join(t.TempDir(), "同僚")
	rec := fakeOpener(t, f)
	if out, errOut, code := f.run("--workspace", ws2, "import", zipPath, "--name", "受領"); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	for _, q := range []string{"見積", "りんご"} {
		want, got := hitKeys(t, f, f.ws, q), hitKeys(t, f, ws2, q)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("search %q: %q after the import, %q in the original", q, got, want)
		}
	}
	hit := `受領\2024\見積\a.txt`
	if _, errOut, code := f.run("--workspace", ws2, "open", hit); code != 1 || !strings.Contains(errOut, "元のフォルダを確かめてください") {
		t.Fatalf("open before the folder is confirmed: exit %d, %q", code, errOut)
	}
	if len(opened(rec)) != 0 {
		t.Fatalf("opened %v before the folder was confirmed", opened(rec))
	}
	out := f.mustRun("--workspace", ws2, "folder", "source", "受領", there)
	if !strings.Contains(out, "インデックス「受領」の元のフォルダを "+there+" に変えました") {
		t.Errorf("folder source said %q", out)
	}
	for _, c := range []struct{ hit, want string }{
		{hit, filepath.Join(there, "2024", "見積", "a.txt")},
		{`受領\2024\議事録.txt`, filepath.Join(there, "2024", "議事録.txt")},
		{`受領\b.xlsm`, filepath.Join(ws2, "work", "tmp", "readonly")},
	} {
		n := len(opened(rec))
		if out, errOut, code := f.run("--workspace", ws2, "open", c.hit); code != 0 {
			t.Fatalf("open %s: exit %d, %q %q", c.hit, code, out, errOut)
		}
		if got := opened(rec)[n:]; len(got) != 1 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("open %s opened %v, want %s", c.hit, got, c.want)
		}
	}
}
