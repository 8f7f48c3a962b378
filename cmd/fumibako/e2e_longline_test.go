package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
)

// peakBound is what the coordinator and the server may use, whatever one
// file or line holds (issue 36: 5.3 GiB for a 99 MB line before).
const peakBound = 400 << 20

// bigLineBytes is the size of the one paragraph of the issue's probe.
const bigLineBytes = 99_000_000

// bigParagraph is about size bytes of text without a space, words[0] at
// its start, words[1] across the first cut of the line (it starts two
// runes before extract.LineMaxRunes), words[2] in its middle and words[3]
// at its end. The filler's period (37 runes) is no divisor of the cut's
// step, so the pieces differ (identical ones would share one part).
func bigParagraph(size int, words [4]string) string {
	unit := []rune("あいうえおかきくけこさしすせそ0123456789abcdefghijkl")
	var b strings.Builder
	b.Grow(size + 1024)
	n := 0
	fill := func(runes int) {
		for ; runes > 0; runes-- {
			b.WriteRune(unit[n%len(unit)])
			n++
		}
	}
	b.WriteString(words[0])
	fill(extract.LineMaxRunes - 2 - len([]rune(words[0])))
	b.WriteString(words[1])
	for b.Len() < size/2 {
		fill(len(unit))
	}
	b.WriteString(words[2])
	for b.Len() < size-len(words[3]) {
		fill(len(unit))
	}
	b.WriteString(words[3])
	return b.String()
}

// writeODT writes a text document of one paragraph and a short second one
// (a few hundred KB: the paragraph compresses well).
func writeODT(t *testing.T, path, paragraph string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	io.WriteString(w, "application/vnd.oasis.opendocument.text")
	w, _ = zw.Create("META-INF/manifest.xml")
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`)
	w, _ = zw.Create("content.xml")
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text><text:p>`)
	io.WriteString(w, paragraph)
	io.WriteString(w, `</text:p><text:p>二つ目の段落</text:p></office:text></office:body></office:document-content>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// peakOf reads the peak resident memory the process pid wrote at its exit
// (FUMIBAKO_TEST_PEAK_RSS, exithook_on.go).
func peakOf(t testing.TB, base string, pid int) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("%s.%d", base, pid))
	if err != nil {
		t.Fatalf("no peak memory from process %d: %v", pid, err)
	}
	n, _ := strconv.ParseInt(string(data), 10, 64)
	return n
}

// runPeak runs fumibako with extra environment and returns its output,
// exit code and, when it exited by itself, its own peak memory.
func (f *fixture) runPeak(peak string, env []string, args ...string) (string, int, int64) {
	f.t.Helper()
	c := f.cmd(args...)
	c.Env = append(c.Env, env...)
	c.Env = append(c.Env, "FUMIBAKO_TEST_PEAK_RSS="+peak)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		if !ee.Exited() {
			return out.String(), -1, 0 // killed
		}
		return out.String(), ee.ExitCode(), peakOf(f.t, peak, c.Process.Pid)
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return out.String(), 0, peakOf(f.t, peak, c.Process.Pid)
}

// searchJSON searches one word and returns the hits and the output's size.
func (f *fixture) searchJSON(word string) ([]map[string]any, int) {
	f.t.Helper()
	out, errOut, code := f.run("search", word, "--json")
	if code > 1 {
		f.t.Fatalf("search %s: exit %d\n%s", word, code, errOut)
	}
	var hits []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var h map[string]any
		if line != "" && json.Unmarshal([]byte(line), &h) == nil {
			hits = append(hits, h)
		}
	}
	return hits, len(out)
}

// TestIssue36LongLine is the issue's probe: a small .odt whose one
// paragraph holds 99 MB. The coordinator's peak memory stays under
// peakBound in the run that ingests and publishes it and in a run that
// publishes it at the start after a run died while publishing it; every
// word of it is found, the one across the line's first cut too, with a
// few KB of output; the server's search and preview stay as small, and so
// does the server.
func TestIssue36LongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a 99 MB line three times")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the peak-memory hook reads getrusage on Linux")
	}
	f := newFixture(t)
	peak := filepath.Join(t.TempDir(), "peak")
	big := filepath.Join(f.root, "大", "巨大.odt")
	first := [4]string{"先頭の目印甲", "境界の目印乙", "中央の目印丙", "末尾の目印丁"}
	writeODT(t, big, bigParagraph(bigLineBytes, first))
	f.write("小/普通.txt", "普通のファイル戊\n")
	f.mustRun("folder", "add", f.root)

	checkWords := func(words [4]string) {
		t.Helper()
		for _, w := range append(words[:], "二つ目の段落") {
			hits, size := f.searchJSON(w)
			if len(hits) != 1 || !strings.HasSuffix(fmt.Sprint(hits[0]["path"]), "巨大.odt") {
				t.Errorf("search %s: %d hits", w, len(hits))
				continue
			}
			if size > 16<<10 {
				t.Errorf("search %s --json wrote %d bytes", w, size)
			}
			text := fmt.Sprint(hits[0]["text"])
			if n := len([]rune(text)); n > 1002 || !strings.Contains(text, w) {
				t.Errorf("search %s: hit text of %d characters", w, n)
			}
		}
	}
	out, code, rss := f.runPeak(peak, nil, "index", "--plain")
	t.Logf("first run: coordinator peak %d MiB", rss>>20)
	if code != 0 || rss > peakBound {
		t.Fatalf("first run: exit %d, coordinator peak %d MiB (bound %d)\n%s", code, rss>>20, peakBound>>20, out)
	}
	checkWords(first)
	if hits, _ := f.searchJSON("普通のファイル戊"); len(hits) != 1 {
		t.Errorf("the small file: %d hits", len(hits))
	}

	// A changed file whose run dies while publishing it: the next run
	// publishes it at the start.
	second := [4]string{"先頭の新目印", "境界の新目印", "中央の新目印", "末尾の新目印"}
	writeODT(t, big, bigParagraph(bigLineBytes, second))
	os.Chtimes(big, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if _, code, _ := f.runPeak(peak, []string{"FUMIBAKO_TEST_CRASH_PUBLISHING=大"}, "index", "--plain"); code != -1 {
		t.Fatalf("the run that should die while publishing exited %d", code)
	}
	out, code, rss = f.runPeak(peak, nil, "index", "--plain")
	t.Logf("run publishing at the start: coordinator peak %d MiB", rss>>20)
	if code != 0 || rss > peakBound || !strings.Contains(out, "集約ファイルに入れていないインデックス（1 フォルダ）") {
		t.Fatalf("run after the kill: exit %d, coordinator peak %d MiB\n%s", code, rss>>20, out)
	}
	checkWords(second)
	if hits, _ := f.searchJSON(first[2]); len(hits) != 0 {
		t.Errorf("the old text is still found")
	}

	rss = f.serveProbe(peak, second[2])
	t.Logf("server: peak %d MiB", rss>>20)
	if rss > peakBound {
		t.Errorf("server peak %d MiB", rss>>20)
	}
}

// serveProbe runs `fumibako serve`, searches word through /api/search and
// previews its hit ten times at once, checks the sizes of the answers,
// stops the server with an interrupt and returns its peak memory.
func (f *fixture) serveProbe(peak, word string) int64 {
	t := f.t
	c := f.cmd("serve", "--addr", "127.0.0.1:0")
	c.Env = append(c.Env, "FUMIBAKO_TEST_PEAK_RSS="+peak)
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	base := strings.TrimSpace(line[strings.Index(line, "http"):])
	go io.Copy(io.Discard, stdout)
	get := func(path string) []byte {
		resp, err := (&http.Client{Timeout: time.Minute}).Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d %s", path, resp.StatusCode, b)
		}
		return b
	}
	body := get("api/search?" + url.Values{"q": {word}}.Encode())
	if len(body) > 16<<10 || !bytes.Contains(body, []byte(word)) {
		t.Errorf("/api/search: %d bytes", len(body))
	}
	var hit struct{ Path, Place string }
	for _, l := range bytes.Split(body, []byte("\n")) {
		var v struct {
			Type, Path, Place string
		}
		if json.Unmarshal(l, &v) == nil && v.Type == "hit" {
			hit.Path, hit.Place = v.Path, v.Place
		}
	}
	q := url.Values{"path": {`営業\` + hit.Path}, "place": {hit.Place}, "row": {"1"}}.Encode()
	done := make(chan int, 10)
	for range 10 {
		go func() {
			resp, err := http.Get(base + "api/preview?" + q)
			if err != nil {
				done <- -1
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			done <- len(b)
		}()
	}
	for range 10 {
		if n := <-done; n < 0 || n > 64<<10 {
			t.Errorf("/api/preview: %d bytes", n)
		}
	}
	c.Process.Signal(os.Interrupt)
	if err := c.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	return peakOf(t, peak, c.Process.Pid)
}

// TestIssue36TextBudget: a file whose text is over the per-file budget
// fails in the worker with the budget's message; the run completes and
// the rest is searchable.
func TestIssue36TextBudget(t *testing.T) {
	f := newFixture(t)
	f.env = append(f.env, "FUMIBAKO_TEST_TEXT_BUDGET=1000000")
	writeODT(t, filepath.Join(f.root, "大", "多すぎ.odt"), bigParagraph(2_000_000, [4]string{"甲", "乙", "丙", "丁"}))
	f.write("小/普通.txt", "普通のファイル戊\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--plain")
	if r := f.row(filepath.Join("大", "多すぎ.odt")); r.State != ingestlist.Failed || r.Error != extract.MsgTextTooLarge {
		t.Errorf("row = %s %q, want 失敗 %q", r.State, r.Error, extract.MsgTextTooLarge)
	}
	if hits, _ := f.searchJSON("普通のファイル戊"); len(hits) != 1 {
		t.Errorf("the small file: %d hits", len(hits))
	}
}

// TestIssue36PoisonedFolder: a folder whose publish kills the process
// every time (testhooks: FUMIBAKO_TEST_CRASH_PUBLISHING) kills two runs,
// the first while publishing it after ingesting it, the second at the
// start; the third sets it aside (its files 失敗 with the message) and
// completes, and the other folders are searchable.
func TestIssue36PoisonedFolder(t *testing.T) {
	f := newFixture(t)
	f.env = append(f.env, "FUMIBAKO_TEST_CRASH_PUBLISHING=毒")
	f.write("毒/a.txt", "毒の中の語\n")
	f.write("良/b.txt", "良い語\n")
	f.write("c.txt", "上の語\n")
	f.mustRun("folder", "add", f.root)
	for run := 1; run <= 2; run++ {
		out, _, code := f.run("index", "--plain")
		if code >= 0 && code <= 2 {
			t.Fatalf("run %d exited %d; it should die while publishing\n%s", run, code, out)
		}
	}
	out := f.mustRun("index", "--plain")
	if !strings.Contains(out, `2 回続けて強制終了したフォルダは、まとめずに取り込み済みの 1 件を失敗にしました: 営業\毒`) {
		t.Errorf("third run's output:\n%s", out)
	}
	if r := f.row(filepath.Join("毒", "a.txt")); r.State != ingestlist.Failed || !strings.Contains(r.Error, "2 回続けて強制終了されたため") {
		t.Errorf("row of the poisoned folder's file = %s %q", r.State, r.Error)
	}
	for _, w := range []string{"良い語", "上の語"} {
		if hits, _ := f.searchJSON(w); len(hits) != 1 {
			t.Errorf("search %s: %d hits", w, len(hits))
		}
	}
	if hits, _ := f.searchJSON("毒の中の語"); len(hits) != 0 {
		t.Errorf("the folder set aside was published")
	}
	// A fourth run has nothing to do and does not touch the folder.
	f.mustRun("index", "--plain")
	if failures := f.mustRun("failures"); !strings.Contains(failures, "a.txt") {
		t.Errorf("failures:\n%s", failures)
	}
}
