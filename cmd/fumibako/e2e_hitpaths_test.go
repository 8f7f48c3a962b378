package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/search"
)

// TestIssue31SearchOrderDatesPaths: search's default order (by index, then
// natural order of paths: 第1回 < 第2回 < 第10回), --sort, --since and
// --until, the TSV's freshness and --full-path columns, --json's fullPath,
// and the guidance on a workspace without an index (issue 31).
func TestIssue31SearchOrderDatesPaths(t *testing.T) {
	f := newFixture(t)
	sep := string(filepath.Separator)

	// Nothing made yet: the web UI's guidance, exit 1, before and after
	// a folder is added.
	for _, step := range []func(){func() {}, func() { f.mustRun("folder", "add", f.root) }} {
		step()
		_, errOut, code := f.run("search", "りんご")
		if code != 1 || !strings.Contains(errOut, search.MsgNoIndexYet) || !strings.Contains(errOut, "fumibako index") {
			t.Fatalf("search on an empty workspace: exit %d, stderr %q", code, errOut)
		}
	}

	day := func(d int) time.Time { return time.Date(2024, 4, d, 12, 0, 0, 0, time.Local) }
	files := []struct {
		rel, text string
		mod       time.Time
	}{
		{"第10回.txt", "りんご\n", day(10)},
		{"第2回.txt", "りんご\nりんご\nりんご\n", day(2)},
		{"第1回.txt", "りんご\n", day(1)},
		{"第１１回.txt", "りんご\nりんご\n", day(11)}, // full-width digits count too
		{"資料/第3回.txt", "りんご\n", day(3)},
	}
	for _, fl := range files {
		f.write(fl.rel, fl.text)
		if err := os.Chtimes(filepath.Join(f.root, filepath.FromSlash(fl.rel)), fl.mod, fl.mod); err != nil {
			t.Fatal(err)
		}
	}
	f.mustRun("index")

	// files returns the file column (first) of each TSV line, once per file.
	order := func(out string) []string {
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			p, _, _ := strings.Cut(l, "\t")
			if len(got) == 0 || got[len(got)-1] != p {
				got = append(got, p)
			}
		}
		return got
	}
	p := func(rel string) string { return "営業" + sep + strings.ReplaceAll(rel, "/", sep) }
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"natural order", nil, []string{p("第1回.txt"), p("第2回.txt"), p("第10回.txt"), p("第１１回.txt"), p("資料/第3回.txt")}},
		{"--sort path", []string{"--sort", "path"}, []string{p("第1回.txt"), p("第2回.txt"), p("第10回.txt"), p("第１１回.txt"), p("資料/第3回.txt")}},
		{"--sort date", []string{"--sort", "date"}, []string{p("第１１回.txt"), p("第10回.txt"), p("資料/第3回.txt"), p("第2回.txt"), p("第1回.txt")}},
		{"--sort hits", []string{"--sort", "hits"}, []string{p("第2回.txt"), p("第１１回.txt"), p("第1回.txt"), p("第10回.txt"), p("資料/第3回.txt")}},
		{"--since", []string{"--since", "2024-04-03"}, []string{p("第10回.txt"), p("第１１回.txt"), p("資料/第3回.txt")}},
		{"--until", []string{"--until", "2024/04/02"}, []string{p("第1回.txt"), p("第2回.txt")}},
		{"--since and --until", []string{"--since", "2024-04-02", "--until", "2024-04-10", "--sort", "date"}, []string{p("第10回.txt"), p("資料/第3回.txt"), p("第2回.txt")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := f.mustRun(append([]string{"search", "りんご", "--no-names"}, tc.args...)...)
			if got := order(out); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("files = %q, want %q\n%s", got, tc.want, out)
			}
		})
	}

	// Freshness (last column but --full-path's) and the full path.
	later := time.Now()
	f.write("第2回.txt", "りんご\nりんご\nりんご\n追記\n")
	os.Chtimes(filepath.Join(f.root, "第2回.txt"), later, later)
	os.Remove(filepath.Join(f.root, "第1回.txt"))
	out := f.mustRun("search", "りんご", "--no-names", "--full-path")
	state := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		fs := strings.Split(l, "\t")
		if len(fs) != 7 {
			t.Fatalf("TSV line has %d columns, want 7 (path, place, kind, modified, line, state, full path): %q", len(fs), l)
		}
		state[fs[0]] = fs[5]
		if root, _ := filepath.Abs(f.root); fs[6] != filepath.Join(root, strings.TrimPrefix(fs[0], "営業"+sep)) {
			t.Errorf("full path column %q for %s", fs[6], fs[0])
		}
	}
	if state[p("第1回.txt")] != search.MsgFileDeleted || state[p("第2回.txt")] != search.MsgFileChanged || state[p("第10回.txt")] != "" {
		t.Errorf("freshness column: %q", state)
	}
	var h struct {
		FullPath  string `json:"fullPath"`
		Freshness string `json:"freshness"`
		Path      string `json:"path"`
	}
	first, _, _ := strings.Cut(f.mustRun("search", "りんご", "--no-names", "--json"), "\n")
	if err := json.Unmarshal([]byte(first), &h); err != nil {
		t.Fatal(err)
	}
	if root, _ := filepath.Abs(f.root); h.Path != "第1回.txt" || h.FullPath != filepath.Join(root, "第1回.txt") || h.Freshness != "deleted" {
		t.Errorf("--json first hit = %+v", h)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sort", "name"}, "「--sort」の値「name」は使えません"},
		{[]string{"--since", "4月1日"}, "日付「4月1日」を読めません"},
		{[]string{"--since", "2024-04-05", "--until", "2024-04-01"}, "期間の終わり（2024-04-01）が始まり（2024-04-05）より前です"},
		{[]string{"--format", "csv"}, "--format は --export といっしょに指定してください。"},
		{[]string{"--export", "x.txt", "--format", "xml"}, "「--format」の値「xml」は使えません"},
	} {
		if _, errOut, code := f.run(append([]string{"search", "りんご"}, tc.args...)...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("search %v: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestIssue31ExportFormats: --export picks the format by extension or
// --format; the .txt is the reference's format (no 更新日時 column) unless
// --freshness adds the trailing pair; CSV carries time, size and state;
// JSON lines carry fullPath and freshness.
func TestIssue31ExportFormats(t *testing.T) {
	f := newFixture(t)
	f.write("見積.txt", "りんご 10 箱\n")
	f.write("報告.txt", "りんごの出荷\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	os.Remove(filepath.Join(f.root, "報告.txt"))
	dir := t.TempDir()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	export := func(name string, extra ...string) string {
		out := f.mustRun(append([]string{"search", "りんご", "--no-names", "--export", filepath.Join(dir, name)}, extra...)...)
		if !strings.Contains(out, "に出力しました（2 件）") {
			t.Errorf("export %s: %q", name, out)
		}
		return read(name)
	}
	txt := export("search_results.txt")
	want := "\ufeff【検索文字列\u3000りんご】 2 件\r\nファイル名\t場所\t種別\t行\tA\r\n" +
		"営業\\報告.txt\t\t本文\t1\tりんごの出荷\r\n営業\\見積.txt\t\t本文\t1\tりんご 10 箱\r\n\r\n"
	if txt != want {
		t.Errorf("search_results.txt =\n%q\nwant\n%q", txt, want)
	}
	if got := export("fresh.txt", "--freshness"); !strings.Contains(got, "行\tA\t更新日時\t状態\r\n") ||
		!strings.Contains(got, "\tりんごの出荷\t"+f.row("報告.txt").Updated+"\t削除されています\r\n") {
		t.Errorf("--freshness export =\n%q", got)
	}
	if got := export("結果.csv"); !strings.HasPrefix(got, "\ufeffファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A\r\n") || !strings.Contains(got, ",削除されています,りんごの出荷\r\n") {
		t.Errorf("CSV export =\n%q", got)
	}
	for _, name := range []string{"結果.json", "結果.data"} {
		var extra []string
		if name == "結果.data" {
			extra = []string{"--format", "json"}
		}
		got := export(name, extra...)
		lines := strings.Split(strings.TrimSpace(got), "\n")
		var h struct {
			FullPath, Freshness, Path string
		}
		if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &h) != nil {
			t.Fatalf("JSON export %s =\n%s", name, got)
		}
		if root, _ := filepath.Abs(f.root); h.Path != "報告.txt" || h.Freshness != "deleted" || h.FullPath != filepath.Join(root, "報告.txt") {
			t.Errorf("JSON export %s first line = %+v", name, h)
		}
	}
}
