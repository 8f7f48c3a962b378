package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// End-to-end tests of OCR runs (issue 29) with the fake engine and the
// .ocrtest scans of the test hooks (ocr_hooks_on.go): each line of a
// .ocrtest file is a page; "text:" pages have a text layer.

// ocrFixture is a fixture whose fake OCR engine counts its calls in
// counter (FUMIBAKO_TEST_OCR); engine false makes it missing.
func ocrFixture(t *testing.T) (*fixture, string) {
	f := newFixture(t)
	counter := filepath.Join(filepath.Dir(f.ws), "ocr-calls.txt")
	f.mustRun("folder", "add", f.root)
	return f, counter
}

// ocrEnv sets the fake engine (counter "" = missing) and extra variables.
func (f *fixture) ocrEnv(counter string, extra ...string) {
	if counter == "" {
		counter = "missing"
	}
	f.env = append([]string{"FUMIBAKO_TEST_OCR=" + counter}, extra...)
}

// scan writes a .ocrtest file of the given pages.
func (f *fixture) scan(rel string, pages ...string) {
	f.t.Helper()
	f.write(rel, strings.Join(pages, "\n")+"\n")
}

// ocrCalls counts the fake recognizer's calls per page text.
func ocrCalls(t testing.TB, counter string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(counter)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			out[l]++
		}
	}
	return out
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// pageKey is the fake reader's key of a page.
func pageKey(page string) string {
	sum := sha256.Sum256([]byte(page))
	return hex.EncodeToString(sum[:])
}

// cacheKeys lists the keys in the workspace's OCR page cache.
func cacheKeys(t testing.TB, ws string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	filepath.WalkDir(filepath.Join(ws, "work", "ocr", "pages"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") {
			out[strings.TrimSuffix(d.Name(), ".txt")] = true
		}
		return nil
	})
	return out
}

// editSettings changes settings.json's top-level fields.
func (f *fixture) editSettings(set map[string]any) {
	f.t.Helper()
	path := filepath.Join(f.ws, "settings.json")
	data, err := os.ReadFile(path)
	if err != nil {
		f.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &m); err != nil {
		f.t.Fatal(err)
	}
	for k, v := range set {
		m[k] = v
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func pages(prefix string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("%s ページ%d", prefix, i))
	}
	return out
}

// TestOCRCacheSurvivesRename: a scan is recognized once; touching it,
// renaming it and copying it cost no recognizer call, and the text is
// found under the new names.
func TestOCRCacheSurvivesRename(t *testing.T) {
	f, counter := ocrFixture(t)
	f.ocrEnv(counter)
	scan := append([]string{"text:表紙の見出し"}, pages("見積スキャン", 3)...)
	f.scan("scan.ocrtest", scan...)
	out := f.mustRun("index", "--workers", "1")
	if r := f.row("scan.ocrtest"); r.State != ingestlist.Done || r.TSVCount != 4 {
		t.Fatalf("scan row: %s %d (%s)\n%s", r.State, r.TSVCount, r.Error, out)
	}
	if calls := ocrCalls(t, counter); total(calls) != 3 {
		t.Fatalf("recognizer calls after the first run: %v", calls)
	}
	keys := cacheKeys(t, f.ws)
	for _, p := range scan[1:] {
		if !keys[pageKey(p)] {
			t.Errorf("page %q not in the cache %v", p, keys)
		}
	}
	if !strings.Contains(out, "OCR で読んだページ: 3") {
		t.Errorf("summary does not count the OCR pages:\n%s", out)
	}

	steps := []struct {
		name string
		do   func()
		find string // a file name search must give for "見積スキャン ページ2"
	}{
		{"touched", func() { f.scan("scan.ocrtest", append(scan, "text:追記")...) }, "scan.ocrtest"},
		{"renamed", func() {
			os.Rename(filepath.Join(f.root, "scan.ocrtest"), filepath.Join(f.root, "改名後.ocrtest"))
		}, "改名後.ocrtest"},
		{"copied", func() { f.scan("sub/写し.ocrtest", scan...) }, "写し.ocrtest"},
	}
	for _, s := range steps {
		s.do()
		f.mustRun("index", "--workers", "1")
		if calls := ocrCalls(t, counter); total(calls) != 3 {
			t.Fatalf("%s: recognizer calls %v, want the first run's 3", s.name, calls)
		}
		if out, _, _ := f.run("search", "見積スキャン ページ2"); !strings.Contains(out, s.find) {
			t.Errorf("%s: search does not find %s:\n%s", s.name, s.find, out)
		}
	}
	lists, _ := os.ReadDir(filepath.Join(f.ws, "work", "ocr", "files"))
	if len(lists) != 2 {
		t.Errorf("key lists: %d, want 2 (the renamed file and the copy)", len(lists))
	}
	// The files are gone: their key lists go; the entries stay for the
	// grace period (a scan killed mid-way comes back for them).
	os.Remove(filepath.Join(f.root, "改名後.ocrtest"))
	os.RemoveAll(filepath.Join(f.root, "sub"))
	f.mustRun("index", "--workers", "1")
	if lists, _ := os.ReadDir(filepath.Join(f.ws, "work", "ocr", "files")); len(lists) != 0 {
		t.Errorf("key lists after the files were deleted: %d", len(lists))
	}
	if n := len(cacheKeys(t, f.ws)); n != 3 {
		t.Errorf("cache entries within the grace period: %d, want 3", n)
	}
}

// TestOCRMissingThenInstalled: without an engine the scans are 済 with
// their text layer and the summary and status count the waiting pages;
// once the engine is there, exactly those files are read again.
func TestOCRMissingThenInstalled(t *testing.T) {
	f, counter := ocrFixture(t)
	f.ocrEnv("")
	f.scan("a.ocrtest", append([]string{"text:表紙あり"}, pages("甲", 2)...)...)
	f.scan("b/b.ocrtest", pages("乙", 1)...)
	f.write("c.txt", "ふつうの文書\n")
	out := f.mustRun("index", "--workers", "1")
	const waiting = "OCR を待つページ: 3（2 ファイル）"
	if !strings.Contains(out, waiting) || !strings.Contains(out, "sudo apt install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert") {
		t.Fatalf("summary without the waiting pages:\n%s", out)
	}
	for _, rel := range []string{"a.ocrtest", "b/b.ocrtest", "c.txt"} {
		if r := f.row(rel); r.State != ingestlist.Done {
			t.Errorf("%s: %s (%s)", rel, r.State, r.Error)
		}
	}
	if out, _, _ := f.run("search", "表紙あり"); !strings.Contains(out, "a.ocrtest") {
		t.Errorf("the text layer is not searchable:\n%s", out)
	}
	data, err := os.ReadFile(filepath.Join(f.ws, "work", "store", "ocr_waiting.tsv"))
	if want := "\xef\xbb\xbf営業\\a.ocrtest\t2\r\n営業\\b\\b.ocrtest\t1\r\n"; err != nil || string(data) != want {
		t.Errorf("ocr_waiting.tsv = %q, %v, want %q", data, err, want)
	}
	if st := f.mustRun("status"); !strings.Contains(st, waiting) {
		t.Errorf("status without the waiting pages:\n%s", st)
	}
	if st := f.mustRun("status", "--json"); !strings.Contains(st, `"ocrWaiting":3,"ocrWaitingFiles":2`) {
		t.Errorf("status --json without the waiting pages:\n%s", st)
	}
	// Still no engine: nothing to do, the pages still wait.
	if out := f.mustRun("index"); !strings.Contains(out, "取り込みが必要なファイルはありません。") || !strings.Contains(out, waiting) {
		t.Errorf("rerun without an engine:\n%s", out)
	}

	f.ocrEnv(counter)
	out = f.mustRun("index", "--workers", "1")
	if !strings.Contains(out, "2 件のファイルを取り込みます") || strings.Contains(f.log(), "c.txt") {
		t.Errorf("the engine's run did not take exactly the waiting files:\n%s\nlog:\n%s", out, f.log())
	}
	if calls := ocrCalls(t, counter); total(calls) != 3 {
		t.Errorf("recognizer calls %v, want the 3 waiting pages", calls)
	}
	if strings.Contains(out, "OCR を待つページ") {
		t.Errorf("pages still wait:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "ocr_waiting.tsv")); !os.IsNotExist(err) {
		t.Errorf("the waiting list is still there: %v", err)
	}
	if out, _, _ := f.run("search", "乙 ページ1"); !strings.Contains(out, "b.ocrtest") {
		t.Errorf("the OCR text is not searchable:\n%s", out)
	}
	if out := f.mustRun("index"); !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("third run:\n%s", out)
	}
}

// TestOCRDeadline: a long scan whose pages each fit the per-page
// allowance is not failed although it outlasts the file's deadline; a
// page that hangs is killed once its allowance is over, and the pages
// read before it are kept for the retry.
func TestOCRDeadline(t *testing.T) {
	f, counter := ocrFixture(t)
	f.editSettings(map[string]any{"ocrSecondsPerPage": 2})
	f.ocrEnv(counter, "FUMIBAKO_TEST_OCR_SLEEP=400ms", "FUMIBAKO_TEST_OCR_HANG=固まる")
	f.scan("long.ocrtest", pages("長い", 8)...) // 3.2 s against a 2 s deadline
	hang := append(pages("途中", 6), "固まる ページ")
	f.scan("hang.ocrtest", hang...)
	f.mustRun("index", "--workers", "2", "--file-timeout", "2s")
	if r := f.row("long.ocrtest"); r.State != ingestlist.Done {
		t.Errorf("long scan: %s (%s)", r.State, r.Error)
	}
	r := f.row("hang.ocrtest")
	if want := "OCR の 1 ページが 2 秒以内に読み終わらなかったため中止しました"; r.State != ingestlist.Failed || !strings.HasPrefix(r.Error, want) {
		t.Errorf("hung scan: %s %q, want 失敗 %q…", r.State, r.Error, want)
	}
	keys := cacheKeys(t, f.ws)
	for _, p := range hang[:6] {
		if !keys[pageKey(p)] {
			t.Errorf("page %q read before the hang is not cached", p)
		}
	}
	// The retry reads only the page that hung (now that it does not).
	f.ocrEnv(counter)
	f.mustRun("index", "--workers", "1", "--retry-failed", "--file-timeout", "2s")
	if r := f.row("hang.ocrtest"); r.State != ingestlist.Done {
		t.Errorf("retried scan: %s (%s)", r.State, r.Error)
	}
	for p, n := range ocrCalls(t, counter) {
		if n != 1 {
			t.Errorf("page %q recognized %d times", p, n)
		}
	}
}

// TestOCRKillMidScan kills the coordinator (SIGKILL) twice while a long
// scan is read by OCR; the reruns redo no page that was handed over before
// a kill. Two interruptions in a row make the file 失敗 (seed: the
// interrupt limit), and --retry-failed then finishes it from the cache.
func TestOCRKillMidScan(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f, counter := ocrFixture(t)
	scan := pages("長いスキャン", 40)
	f.scan("long.ocrtest", scan...)
	f.ocrEnv(counter, "FUMIBAKO_TEST_OCR_SLEEP=100ms")
	finished := map[string]bool{} // pages cached at some kill
	for kill := 1; kill <= 2; kill++ {
		c := f.cmd("index", "--workers", "1")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- c.Wait() }()
		want := len(finished) + 5
		for deadline := time.Now().Add(30 * time.Second); len(cacheKeys(t, f.ws)) < want; {
			if time.Now().After(deadline) {
				t.Fatalf("kill %d: the cache did not grow to %d", kill, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
		c.Process.Signal(syscall.SIGKILL)
		<-exited
		// The worker ends by itself once its coordinator is gone; give it
		// the time to notice before counting.
		time.Sleep(1500 * time.Millisecond)
		for k := range cacheKeys(t, f.ws) {
			finished[k] = true
		}
		t.Logf("kill %d: %d pages cached, %d recognizer calls", kill, len(finished), total(ocrCalls(t, counter)))
	}
	f.ocrEnv(counter)
	f.mustRun("index", "--workers", "1")
	if r := f.row("long.ocrtest"); r.State != ingestlist.Failed {
		t.Errorf("after two interruptions: %s (%s), want 失敗 (seed)", r.State, r.Error)
	}
	out := f.mustRun("index", "--workers", "1", "--retry-failed")
	if r := f.row("long.ocrtest"); r.State != ingestlist.Done || r.TSVCount != len(scan) {
		t.Fatalf("after the kills: %s %d (%s)\n%s", r.State, r.TSVCount, r.Error, out)
	}
	calls := ocrCalls(t, counter)
	redone := 0
	for _, p := range scan {
		switch n := calls[p]; {
		case n == 0:
			t.Errorf("page %q never recognized", p)
		case n > 1 && finished[pageKey(p)]:
			t.Errorf("page %q was cached before a kill and recognized %d times", p, n)
		case n > 1:
			redone++ // in flight at a kill
		}
	}
	if redone > 2*2 {
		t.Errorf("%d pages recognized again, want at most the ones in flight at the 2 kills", redone)
	}
	t.Logf("%d recognizer calls for %d pages over 2 kills", total(calls), len(scan))
	if out, _, _ := f.run("search", "長いスキャン ページ37"); !strings.Contains(out, "long.ocrtest") {
		t.Errorf("search after the kills:\n%s", out)
	}
}

// TestOCRImagesSwitch: image files are targets only under a root with
// ocrImages on; turning it off removes them from the index.
func TestOCRImagesSwitch(t *testing.T) {
	f := newFixture(t)
	f.write("doc.txt", "文書\n")
	images := []string{"scan.tif", "写真/a.PNG", "b.jpg", "c.jpeg", "d.bmp", "e.tiff"}
	for _, rel := range images {
		f.write(rel, "not really an image")
	}
	f.mustRun("folder", "add", f.root)
	steps := []struct {
		args       []string // folder command before the run
		wantImages bool
	}{
		{nil, false},
		{[]string{"folder", "ocr", "営業", "on"}, true},
		{[]string{"folder", "ocr", "営業", "off"}, false},
	}
	for _, s := range steps {
		if s.args != nil {
			f.mustRun(s.args...)
		}
		f.mustRun("index", "--workers", "1")
		l := f.list()
		if _, ok := l.Lookup(`営業\doc.txt`); !ok {
			t.Errorf("%v: doc.txt has no row", s.args)
		}
		for _, rel := range images {
			_, ok := l.Lookup(`営業\` + strings.ReplaceAll(rel, "/", `\`))
			if ok != s.wantImages {
				t.Errorf("%v: row of %s: %v, want %v", s.args, rel, ok, s.wantImages)
			}
		}
	}
	if out := f.mustRun("folder", "list", "--json"); strings.Contains(out, "ocrImages") {
		t.Errorf("folder list after off: %s", out)
	}
	// folder add --ocr-images registers a root with it on.
	g := newFixture(t)
	g.write("x.png", "png")
	g.mustRun("folder", "add", "--ocr-images", g.root)
	if out := g.mustRun("folder", "list", "--json"); !strings.Contains(out, `"ocrImages":true`) {
		t.Errorf("folder add --ocr-images: %s", out)
	}
	g.mustRun("index", "--workers", "1")
	if _, ok := g.list().Lookup(`営業\x.png`); !ok {
		t.Errorf("x.png is not a target under an --ocr-images root")
	}
	if _, _, code := g.run("folder", "ocr", "営業", "maybe"); code != 2 {
		t.Errorf("folder ocr 営業 maybe: exit %d, want 2", code)
	}
}

// TestOCRWaitingBeforeRows kills the coordinator between the rewrite of
// the waiting list and the commit of the rows (indexer rule 9): the rerun
// ends with the scans 済 and listed, whatever survived.
func TestOCRWaitingBeforeRows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f, _ := ocrFixture(t)
	f.scan("a.ocrtest", pages("甲", 2)...)
	f.scan("b.ocrtest", append([]string{"text:表紙"}, pages("乙", 1)...)...)
	f.ocrEnv("", "FUMIBAKO_TEST_CRASH_AT=after-ocr-waiting")
	if _, _, code := f.run("index", "--workers", "1"); code != -1 && code != 137 {
		t.Fatalf("index with the crash point: exit %d, want killed", code)
	}
	f.ocrEnv("")
	out := f.mustRun("index", "--workers", "1")
	for _, rel := range []string{"a.ocrtest", "b.ocrtest"} {
		if r := f.row(rel); r.State != ingestlist.Done {
			t.Errorf("%s: %s (%s)", rel, r.State, r.Error)
		}
	}
	if !strings.Contains(out, "OCR を待つページ: 3（2 ファイル）") {
		t.Errorf("rerun summary:\n%s", out)
	}
}
