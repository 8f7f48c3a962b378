package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/source"
)

// fakeOpener makes the test binary record what it would open (one path
// per line in the returned file; openhook_on.go) instead of starting the
// desktop's application.
func fakeOpener(t *testing.T, f *fixture) string {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "opened.txt")
	f.env = append(f.env, "FUMIBAKO_TEST_OPENED="+rec)
	return rec
}

func opened(rec string) []string {
	data, _ := os.ReadFile(rec)
	return strings.Fields(strings.ReplaceAll(string(data), "\r", ""))
}

// receive makes a second workspace that holds a copy of f's index name
// (its content folder and its ingest-list rows) as a received index:
// indexSources names it, unconfirmed, as an import does (issue 30).
func receive(t *testing.T, f *fixture, name, recordedPath string) *fixture {
	t.Helper()
	g := &fixture{t: t, ws: filepath.Join(t.TempDir(), "ws2"), env: f.env}
	src := filepath.Join(f.ws, "work", "store", "content", name)
	dst := filepath.Join(g.ws, "work", "store", "content", name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	l := f.list()
	if err := ingestlist.WriteFile(filepath.Join(g.ws, "work", "store", "ingest_status.tsv"), nil, l.Rows); err != nil {
		t.Fatal(err)
	}
	settings := map[string]any{"targetFolders": []any{}, "indexSources": []any{map[string]any{"name": name, "path": recordedPath}}}
	data, _ := json.Marshal(settings)
	if err := os.WriteFile(filepath.Join(g.ws, "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSourceReceivedIndex: a received index is searchable; its files open
// only once its folder is confirmed or re-pointed (folder source), a
// macro-capable one as a read-only copy; source_folder.txt carries the
// root and follows a rename.
func TestSourceReceivedIndex(t *testing.T) {
	f := newFixture(t)
	rec := fakeOpener(t, f)
	f.write("2024/見積/a.txt", "りんごの見積\n")
	f.write("b.xlsm", "not really a workbook")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	sf := filepath.Join(f.ws, "work", "store", "content", "営業", source.FileName)
	want := "\ufeff# fumibako: インデックス名<TAB>元のフォルダ（インデックス作成のたびに書き直します）\r\n営業\t" + f.root + "\r\n"
	if data, _ := os.ReadFile(sf); string(data) != want {
		t.Fatalf("source_folder.txt after a run = %q, want %q", data, want)
	}
	f.mustRun("folder", "rename", "営業", "営業部")
	sf = filepath.Join(f.ws, "work", "store", "content", "営業部", source.FileName)
	want = strings.Replace(want, "\n営業\t", "\n営業部\t", 1)
	if data, _ := os.ReadFile(sf); string(data) != want {
		t.Fatalf("source_folder.txt after a rename = %q, want %q", data, want)
	}
	// The folder moves (another PC sees it elsewhere).
	moved := filepath.Join(filepath.Dir(f.root), "移した", "営業")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.Rename(f.root, moved); err != nil {
		t.Fatal(err)
	}
	g := receive(t, f, "営業部", f.root)
	if out := g.mustRun("search", "りんご"); !strings.Contains(out, "a.txt") {
		t.Fatalf("received index not searchable:\n%s", out)
	}
	if out := g.mustRun("folder", "list"); !strings.Contains(out, "受け取ったインデックス（元のフォルダを確かめていません") {
		t.Errorf("folder list of a received index:\n%s", out)
	}
	hit := `営業部\2024\見積\a.txt`
	for _, tt := range []struct {
		name   string
		before []string // commands run first
		args   []string
		code   int
		say    string
		opened string // the path the opener got, "" none
	}{
		{"unconfirmed", nil, []string{"open", hit}, 1, "元のフォルダを確かめてください", ""},
		{"unconfirmed names folder source", nil, []string{"open", hit}, 1, "fumibako folder source 営業部", ""},
		{"re-pointed", [][]string{{"folder", "source", "営業部", moved}}[0], []string{"open", hit}, 0, "元のファイルを開きました", filepath.Join(moved, "2024", "見積", "a.txt")},
		{"folder", nil, []string{"open", hit, "--folder"}, 0, "元のファイルを開きました", filepath.Join(moved, "2024", "見積")},
		{"not in the list", nil, []string{"open", `営業部\無い.txt`}, 1, "無い.txt が見つかりません", ""},
		{"macro-capable: read-only copy", nil, []string{"open", `営業部\b.xlsm`}, 0, "読み取り専用のコピーで開きました", filepath.Join(g.ws, "work", "tmp", "readonly")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != nil {
				out := g.mustRun(tt.before...)
				if !strings.Contains(out, "インデックス「営業部」の元のフォルダを "+moved+" に変えました") {
					t.Errorf("folder source said %q", out)
				}
			}
			n := len(opened(rec))
			out, errOut, code := g.run(tt.args...)
			if code != tt.code || !strings.Contains(out+errOut, tt.say) {
				t.Fatalf("%v: exit %d, %q %q; want %d and %q", tt.args, code, out, errOut, tt.code, tt.say)
			}
			got := opened(rec)[n:]
			switch {
			case tt.opened == "" && len(got) > 0:
				t.Errorf("opened %v, want nothing", got)
			case tt.opened != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.opened)):
				t.Errorf("opened %v, want %s", got, tt.opened)
			}
			if strings.HasSuffix(tt.args[1], ".xlsm") && len(got) == 1 {
				st, err := os.Stat(got[0])
				data, _ := os.ReadFile(got[0])
				if err != nil || st.Mode().Perm()&0o222 != 0 || string(data) != "not really a workbook" { // read-only attribute on Windows
					t.Errorf("read-only copy %s: %v, mode %v, %q", got[0], err, st.Mode(), data)
				}
			}
		})
	}
	// The user chooses to crawl it: its folder added under its name, the
	// entry goes and nothing is ingested again (its rows are its files).
	g.mustRun("folder", "add", moved, "--name", "営業部")
	if out := g.mustRun("index", "--plain"); !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("a received index added as a root was ingested again:\n%s", out)
	}
	if data, _ := os.ReadFile(filepath.Join(g.ws, "settings.json")); strings.Contains(string(data), "indexSources") {
		t.Errorf("settings keep the indexSources entry of a root: %s", data)
	}
	// The source file of the first workspace: its own root is gone now,
	// and its open says which file is missing, naming folder source.
	_, errOut, code := f.run("open", hit)
	if code != 1 || !strings.Contains(errOut, "a.txt が見つかりません") || !strings.Contains(errOut, "folder source 営業部") {
		t.Errorf("open of a moved root's file: exit %d, %q", code, errOut)
	}
}

// TestFolderAddMissing: a folder not reachable now is registered with a
// warning, and the run skips it with the missing-root line.
func TestFolderAddMissing(t *testing.T) {
	f := newFixture(t)
	absent := filepath.Join(filepath.Dir(f.root), "つながっていない")
	out, errOut, code := f.run("folder", "add", absent)
	if code != 0 || !strings.Contains(out, "追加しました") || !strings.Contains(errOut, "フォルダが今は見つかりません: "+absent) {
		t.Fatalf("folder add of a missing folder: exit %d, %q, %q", code, out, errOut)
	}
	f.write("a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	out = f.mustRun("index", "--plain")
	if !strings.Contains(out, "「つながっていない」 "+absent+" … フォルダが見つからないため取り込みません") {
		t.Errorf("run did not skip the missing root:\n%s", out)
	}
	if _, ok := f.list().Lookup(`営業\a.txt`); !ok {
		t.Errorf("the reachable root was not ingested")
	}
}

// TestFolderRemoveLast: removing the last folder frees its index at the
// next run, or at once with --now: files gone, search finds nothing, its
// list rows gone.
func TestFolderRemoveLast(t *testing.T) {
	for _, tt := range []struct {
		name   string
		remove []string
		then   []string
		say    string
	}{
		{"next run", []string{"folder", "remove", "営業"}, []string{"index", "--plain"}, "のインデックスを削除しました。"},
		{"now", []string{"folder", "remove", "営業", "--now"}, nil, "インデックス「営業」を削除しました。"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "りんご\n")
			f.mustRun("folder", "add", f.root)
			f.mustRun("index")
			if out := f.mustRun("search", "りんご"); !strings.Contains(out, "a.txt") {
				t.Fatalf("search before removal:\n%s", out)
			}
			out := f.mustRun(tt.remove...)
			if tt.then != nil {
				out = f.mustRun(tt.then...)
			}
			if !strings.Contains(out, tt.say) {
				t.Errorf("output lacks %q:\n%s", tt.say, out)
			}
			if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "content", "営業")); !os.IsNotExist(err) {
				t.Errorf("index folder still there: %v", err)
			}
			if out, _, code := f.run("search", "りんご"); code != 1 || strings.Contains(out, "a.txt") {
				t.Errorf("search after removal: exit %d\n%s", code, out)
			}
			if l := f.list(); len(l.Rows) != 0 || len(l.Folders) != 0 {
				t.Errorf("ingest list keeps %d rows, %d folder lines", len(l.Rows), len(l.Folders))
			}
			if out := f.mustRun("folder", "list"); strings.Contains(out, "営業") {
				t.Errorf("folder list keeps the index:\n%s", out)
			}
		})
	}
}

// TestFolderMove: a root whose folder moved (or whose share is reached
// through another drive letter) is moved, not removed and added: nothing
// is ingested again, source_folder.txt follows, and its files open from
// the new place.
func TestFolderMove(t *testing.T) {
	f := newFixture(t)
	rec := fakeOpener(t, f)
	f.write("2024/a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	moved := filepath.Join(filepath.Dir(f.root), "新", "営業")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.Rename(f.root, moved); err != nil {
		t.Fatal(err)
	}
	if out := f.mustRun("folder", "move", "営業", moved); !strings.Contains(out, "場所 "+f.root+" → "+moved) {
		t.Errorf("folder move said %q", out)
	}
	if out := f.mustRun("index", "--plain"); !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("a moved root was ingested again:\n%s", out)
	}
	sf := filepath.Join(f.ws, "work", "store", "content", "営業", source.FileName)
	if data, _ := os.ReadFile(sf); string(data) != string(source.Format("営業", moved)) {
		t.Errorf("source_folder.txt after a move = %q", data)
	}
	f.mustRun("open", `営業\2024\a.txt`)
	if got := opened(rec); len(got) != 1 || got[0] != filepath.Join(moved, "2024", "a.txt") {
		t.Errorf("opened %v", got)
	}
	if _, errOut, code := f.run("folder", "move", "営業", f.ws); code != 1 || !strings.Contains(errOut, "ワークスペース") {
		t.Errorf("move into the workspace: exit %d, %q", code, errOut)
	}
}
