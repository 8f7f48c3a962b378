package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/share"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/workspace"
)

// shareQueries are the words an exported index and its import must
// answer alike: common words (many hits in every kind of file) and rare
// ones.
var shareQueries = []string{"見積", "請求書", "議事録", "budget", "最後の行", "東京 予算"}

// hitKeys runs a search on the workspace ws and returns every hit as
// "path|place|label|row|text" (the index name left out), sorted.
func hitKeys(t testing.TB, f *fixture, ws string, words ...string) []string {
	t.Helper()
	args := append([]string{"--workspace", ws, "search", "--json", "--max", "0"}, words...)
	out, errOut, code, err := runCmd(f.cmdNoWS(args...))
	if err != nil || code > 1 {
		t.Fatalf("search %v: exit %d %v\n%s", words, code, err, errOut)
	}
	var keys []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var h struct {
			Index, Path, Place, Label, Text string
			Row                             int
		}
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Path == "" {
			continue
		}
		keys = append(keys, fmt.Sprintf("%s|%s|%s|%d|%s", h.Path, h.Place, h.Label, h.Row, h.Text))
	}
	sort.Strings(keys)
	return keys
}

// cmdNoWS runs fumibako with the given arguments only (they name the
// workspace).
func (f *fixture) cmdNoWS(args ...string) *exec.Cmd {
	c := f.cmd()
	c.Args = append([]string{testBinary}, args...)
	return c
}

func listOf(t testing.TB, ws string) *ingestlist.List {
	t.Helper()
	l, err := ingestlist.ReadFile(filepath.Join(ws, "work", "store", "ingest_status.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// indexedFixture indexes a generated corpus of n files and exports it.
func indexedFixture(t *testing.T, n int) (*fixture, []testcorpus.File, string) {
	t.Helper()
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	zipPath := filepath.Join(t.TempDir(), "営業.zip")
	out := f.mustRun("export", "営業", "--out", zipPath)
	if !strings.Contains(out, "インデックス「営業」を") {
		t.Fatalf("export said %q", out)
	}
	return f, files, zipPath
}

// wsFiles returns the SHA-256 of every file under ws (the lock files
// left out: taking a lock writes nothing), for "nothing written" checks.
func wsFiles(t testing.TB, ws string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(ws, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		if d.Name() == "lock" || d.Name() == "settings.lock" {
			return nil
		}
		data, _ := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%x", sha256.Sum256(data))
		return nil
	})
	return out
}

func TestExportImportEndToEnd(t *testing.T) {
	f, files, zipPath := indexedFixture(t, 60)
	ws2 := filepath.Join(t.TempDir(), "受け取った側")
	out, errOut, code := f.run("--workspace", ws2, "import", zipPath, "--name", "受領")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "インデックス「受領」を取り込みました") {
		t.Errorf("import said %q", out)
	}
	// Every hit, in the same places.
	for _, q := range append(shareQueries, files[3].Token, files[17].Token) {
		want := hitKeys(t, f, f.ws, strings.Fields(q)...)
		got := hitKeys(t, f, ws2, strings.Fields(q)...)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("search %q: %d hits after import, %d in the original\ngot  %q\nwant %q", q, len(got), len(want), first(got), first(want))
		}
	}
	// The settings record the source folder, not a crawl root.
	s := loadSettings2(t, ws2)
	if len(s.Roots) != 0 || len(s.IndexSources) != 1 || s.IndexSources[0].Name != "受領" ||
		s.IndexSources[0].Path != f.root || s.IndexSources[0].Confirmed {
		t.Errorf("settings after import: roots %v, indexSources %+v", s.Roots, s.IndexSources)
	}
	if lo := leftovers(t, ws2); len(lo) > 0 {
		t.Errorf("leftovers after import: %q", lo)
	}
	// An indexing run of the second workspace (with a root of its own)
	// neither crawls nor deletes the received index, nor warns about it.
	other := filepath.Join(t.TempDir(), "経理")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "memo.txt"), []byte("見積 経理の分\n"), 0o644)
	f.mustRun("--workspace", ws2, "folder", "add", other)
	before := wsFiles(t, filepath.Join(ws2, "work", "store", "content", "受領"))
	runOut := f.mustRun("--workspace", ws2, "index")
	if strings.Contains(runOut, "受領") {
		t.Errorf("the indexing run mentions the received index:\n%s", runOut)
	}
	if after := wsFiles(t, filepath.Join(ws2, "work", "store", "content", "受領")); !mapsEqual(before, after) {
		t.Errorf("the indexing run changed the received index")
	}
	for _, q := range shareQueries[:3] {
		want := hitKeys(t, f, f.ws, q)
		got := hitKeys(t, f, ws2, q)
		got = slices.DeleteFunc(got, func(k string) bool { return strings.HasPrefix(k, "memo.txt|") })
		if !slices.Equal(got, want) {
			t.Errorf("search %q after an indexing run: %d hits, want %d", q, len(got), len(want))
		}
	}
	rows := 0
	for _, r := range listOf(t, ws2).Rows {
		if r.IndexName() == "受領" {
			rows++
		}
	}
	if rows != len(f.list().Rows) {
		t.Errorf("%d rows of the received index after a run, want %d", rows, len(f.list().Rows))
	}
	// folder list and status say what it is.
	if out := f.mustRun("--workspace", ws2, "folder", "list"); !strings.Contains(out, "受け取ったインデックス") {
		t.Errorf("folder list:\n%s", out)
	}
	if out := f.mustRun("--workspace", ws2, "status", "--json"); !strings.Contains(out, fmt.Sprintf(`"name":"受領","path":%q,"enabled":false,"files":%d`, f.root, rows)) ||
		!strings.Contains(out, `"received":true`) {
		t.Errorf("status --json:\n%s", out)
	}
}

func TestImportNameClash(t *testing.T) {
	f, _, zipPath := indexedFixture(t, 12)
	// Into the same workspace: the name is a crawl root's.
	before := wsFiles(t, f.ws)
	_, errOut, code := f.run("import", zipPath)
	if code != 1 || !strings.Contains(errOut, "インデックス「営業」は既にあります。") || !strings.Contains(errOut, "--name") {
		t.Errorf("clash: exit %d\n%s", code, errOut)
	}
	if !mapsEqual(before, wsFiles(t, f.ws)) {
		t.Errorf("a refused import wrote to the workspace")
	}
	_, errOut, code = f.run("import", zipPath, "--overwrite")
	if code != 1 || !strings.Contains(errOut, "登録されているインデックスのため、上書きできません") {
		t.Errorf("overwrite of a root: exit %d\n%s", code, errOut)
	}
	f.mustRun("import", zipPath, "--name", "営業の写し")
	_, errOut, code = f.run("import", zipPath, "--name", "営業の写し")
	if code != 1 || !strings.Contains(errOut, "インデックス「営業の写し」は既にあります。") {
		t.Errorf("second import: exit %d\n%s", code, errOut)
	}
	out := f.mustRun("import", zipPath, "--name", "営業の写し", "--overwrite")
	if !strings.Contains(out, "取り込みました") {
		t.Errorf("overwrite said %q", out)
	}
	// Each hit twice: once in 営業, once in its copy.
	out = f.mustRun("search", "--json", "--max", "0", "見積")
	if a, b := strings.Count(out, `"index":"営業"`), strings.Count(out, `"index":"営業の写し"`); a == 0 || a != b {
		t.Errorf("hits: %d in 営業, %d in 営業の写し", a, b)
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers: %q", lo)
	}
}

func first(s []string) []string {
	if len(s) > 3 {
		return s[:3]
	}
	return s
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func loadSettings2(t testing.TB, ws string) *workspace.Settings {
	t.Helper()
	s, err := (&workspace.Workspace{Root: ws}).LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var _ = share.FormatName

// TestExportRefusals: an export refuses while a run holds the workspace,
// while files wait to be published, and for an index that is not there;
// an import refuses while a run holds the workspace. Nothing is written.
func TestExportRefusals(t *testing.T) {
	f, _, zipPath := indexedFixture(t, 6)
	out := filepath.Join(t.TempDir(), "出力.zip")
	lock, err := (&workspace.Workspace{Root: f.ws}).Lock()
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code := f.run("export", "営業", "--out", out)
	if code != 1 || !strings.Contains(errOut, "インデックス作成の実行中はエクスポートできません。") {
		t.Errorf("export under the lock: exit %d\n%s", code, errOut)
	}
	_, errOut, code = f.run("import", zipPath, "--name", "別名")
	if code != 1 || !strings.Contains(errOut, "インデックス作成の実行中はインポートできません。") {
		t.Errorf("import under the lock: exit %d\n%s", code, errOut)
	}
	lock.Release()
	pending := filepath.Join(f.ws, "work", "store", "content", "営業", "途中.txt")
	os.MkdirAll(pending, 0o755)
	os.WriteFile(filepath.Join(pending, ".places"), nil, 0o644)
	_, errOut, code = f.run("export", "営業", "--out", out)
	if code != 1 || !strings.Contains(errOut, "取り込みが途中のファイルが残っているためエクスポートできません。") {
		t.Errorf("export with a per-file folder: exit %d\n%s", code, errOut)
	}
	os.RemoveAll(pending)
	// A batch file a killed run left (issue 35) holds places not yet
	// published too.
	batch := filepath.Join(f.ws, "work", "store", "batch", "00000000000000000001-1.places")
	os.MkdirAll(filepath.Dir(batch), 0o755)
	os.WriteFile(batch, []byte("FBBATCH1"), 0o644)
	_, errOut, code = f.run("export", "営業", "--out", out)
	if code != 1 || !strings.Contains(errOut, "取り込みが途中のファイルが残っているためエクスポートできません。") {
		t.Errorf("export with a batch file left: exit %d\n%s", code, errOut)
	}
	os.Remove(batch)
	_, errOut, code = f.run("export", "無い", "--out", out)
	if code != 1 || !strings.Contains(errOut, "インデックス「無い」はありません。") {
		t.Errorf("export of no index: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused export wrote %s", out)
	}
	if _, err := os.Stat(out + ".tmp"); err == nil {
		t.Errorf("a refused export left %s.tmp", out)
	}
	_, errOut, code = f.run("export", "営業", "--out", zipPath)
	if code != 1 || !strings.Contains(errOut, "は既にあります。別の名前を指定してください。") {
		t.Errorf("export over a file: exit %d\n%s", code, errOut)
	}
}
