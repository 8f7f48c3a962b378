package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// tinyTree writes n text files of 1–8 KB into nested Japanese folders of
// about 40 files under root (issue 35's tiny-file share), each holding one
// token of its own (qz<6 digits>k) among filler lines. It returns the
// files' paths under root (/-separated) in token order.
func tinyTree(t testing.TB, root string, n int, seed int64) []string {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	depts := []string{"営業部", "総務部", "経理部", "開発部"}
	years := []string{"2023年度", "2024年度", "2025年度"}
	kinds := []string{"見積", "議事録", "日報", "ログ", "請求"}
	words := []string{"見積書", "打ち合わせ", "納期", "株式会社", "確認", "お願いします", "承認", "進捗", "予算", "report", "deadline", "invoice", "東京", "大阪", "担当"}
	rels := make([]string, n)
	for i := range n {
		folder := i / 40
		dir := filepath.Join(depts[folder%len(depts)], years[folder/len(depts)%len(years)], fmt.Sprintf("%s%03d", kinds[folder%len(kinds)], folder))
		if folder%3 == 0 {
			dir = filepath.Join(dir, "控え")
		}
		ext := []string{".txt", ".csv", ".log", ".md"}[i%4]
		rel := filepath.ToSlash(filepath.Join(dir, fmt.Sprintf("文書_%05d%s", i, ext)))
		var b strings.Builder
		size := 1024 + rng.Intn(7*1024)
		token := rng.Intn(size / 200)
		for line := 0; b.Len() < size; line++ {
			if line == token {
				fmt.Fprintf(&b, "整理番号 qz%06dk の控え\n", i)
				continue
			}
			for w := 0; w < 8; w++ {
				b.WriteString(words[rng.Intn(len(words))])
				b.WriteByte(' ')
			}
			b.WriteByte('\n')
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		rels[i] = rel
	}
	return rels
}

// TestIssue35TinyTreeKills kills the build of a tree of many tiny files at
// random moments (the per-file path of small files: stage, swap, group
// commit, publish), then lets it finish: no file lost (those killed twice
// in a row fail as the seed says, and --retry-failed takes them), exactly
// one row per file, every file's token found in that file by search. 2,000 files here;
// FUMIBAKO_TINY_FILES=20000 runs issue 35's full tree.
func TestIssue35TinyTreeKills(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	n := 2000
	if s := os.Getenv("FUMIBAKO_TINY_FILES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			t.Fatalf("FUMIBAKO_TINY_FILES=%q", s)
		}
	}
	f := newFixture(t)
	rels := tinyTree(t, f.root, n, 35)
	f.mustRun("folder", "add", f.root)
	rng := rand.New(rand.NewSource(35))
	batchLeft := 0 // kills that left a batch file: the batch path ran
	kills, _ := killRuns(t, f, rng, killPlan{runs: 60, kills: 12, minDelay: 20, maxDelay: 4000, floor: 50,
		afterKill: func() {
			if ents, _ := os.ReadDir(filepath.Join(f.ws, "work", "store", "batch")); len(ents) > 0 {
				batchLeft++
			}
		},
		touch: func() {
			for range n / 10 {
				p := filepath.Join(f.root, filepath.FromSlash(rels[rng.Intn(n)]))
				os.Chtimes(p, time.Now(), time.Now().Add(time.Duration(rng.Intn(100000))*time.Second))
			}
		}})
	if kills < 8 {
		t.Fatalf("only %d kills", kills)
	}
	if batchLeft == 0 {
		t.Errorf("no kill left a batch file: the small files did not go through the batch path")
	}
	// A file in flight at two kills in a row fails as interrupted (seed);
	// nothing else may fail, and --retry-failed takes those again.
	f.mustRun("index", "--workers", "2")
	// One read of the list for all the files (f.row reads it whole for
	// each: quadratic at 20,000 files).
	rowOf := func(l *ingestlist.List, rel string) ingestlist.Row {
		r, ok := l.Lookup(`営業\` + strings.ReplaceAll(rel, "/", `\`))
		if !ok {
			t.Fatalf("no ingest-list row for %s", rel)
		}
		return r
	}
	interrupted := 0
	l := f.list()
	for _, rel := range rels {
		if r := rowOf(l, rel); r.State == ingestlist.Failed {
			if !strings.Contains(r.Error, "強制終了") {
				t.Errorf("%s failed: %s", rel, r.Error)
			}
			interrupted++
		}
	}
	t.Logf("%d files failed as interrupted twice", interrupted)
	f.mustRun("index", "--workers", "2", "--retry-failed")
	l = f.list()
	if len(l.Lines) != len(l.Rows) || len(l.Rows) != n {
		t.Fatalf("ingest list: %d lines, %d rows, want %d each", len(l.Lines), len(l.Rows), n)
	}
	for _, rel := range rels {
		if r := rowOf(l, rel); r.State != ingestlist.Done {
			t.Errorf("%s: state %s (%s), want 済", rel, r.State, r.Error)
		}
	}
	// One search finds every token, each in its own file.
	out := f.mustRun("search", "--json", "--max", "0", "--no-names", "qz")
	token := regexp.MustCompile(`qz(\d{6})k`)
	found := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var h struct {
			Path string `json:"path"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(line), &h); err != nil {
			t.Fatalf("search --json line %q: %v", line, err)
		}
		for _, m := range token.FindAllStringSubmatch(h.Text, -1) {
			i, _ := strconv.Atoi(m[1])
			if _, dup := found[i]; dup {
				t.Errorf("token %s found twice", m[0])
			}
			found[i] = h.Path
		}
	}
	for i, rel := range rels {
		want := strings.ReplaceAll(rel, "/", `\`) // the path under the index
		if got, ok := found[i]; !ok {
			t.Errorf("token of %s not found", rel)
		} else if got != want {
			t.Errorf("token of %s found in %s", rel, got)
		}
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers: %q", lo)
	}
}
