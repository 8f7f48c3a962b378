package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
)

// Internals that a failure message shown to users must not hold (issue 16,
// "one rule for the detail of a failure"): an English error chain
// ("read zip directory: zip: not a valid zip file") and a Go package
// prefix ("extract:", "zip:", "xls:", …: a lower-case ASCII word and a
// colon).
var (
	englishChain  = regexp.MustCompile(`[a-z]+: [a-z]`)
	packagePrefix = regexp.MustCompile(`(^|[^A-Za-z0-9])[a-z][a-z0-9]*:`)
)

// brokenExts are the extensions the generated broken files take: every
// reader's, the text ones included.
var brokenExts = []string{".xlsx", ".xlsm", ".xlsb", ".xls", ".docx", ".docm", ".doc", ".pptx", ".pptm", ".ppt",
	".odt", ".ods", ".odp", ".fodt", ".pdf", ".rtf", ".txt", ".csv"}

// TestFailureMessagesShowNoInternals runs every failure the test corpora
// produce through a real index run: the committed fixtures under
// internal/**/testdata, ../shared/corpus when present, and generated
// broken files (random bytes and empty files under every extension, ZIP
// packages and compound files cut short). No エラー written to the ingest
// list, and no failure the web API shows, holds the test's folder, a
// path of it, an English error chain or a Go package prefix; random bytes
// are never called encrypted; the English chains are in indexing_log.txt.
func TestFailureMessagesShowNoInternals(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the fixtures and the corpus")
	}
	f := newFixture(t)
	repo := testutil.RepoRoot(t)
	fixtures := copyTestdata(t, repo, filepath.Join(f.root, "fixtures"))
	corpus := testutil.CorpusDir(t)
	haveCorpus := false
	if st, err := os.Stat(corpus); err == nil && st.IsDir() {
		haveCorpus = true
		copyTree(t, corpus, filepath.Join(f.root, "corpus"), func(string) bool { return true })
	}
	random := writeBroken(t, repo, filepath.Join(f.root, "broken"))
	t.Logf("%d fixtures, corpus %v, %d generated files", fixtures, haveCorpus, len(random))

	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--file-timeout", "2m")

	failures := 0
	for _, r := range f.list().Rows {
		if r.Error == "" {
			continue
		}
		failures++
		checkNoInternals(t, f, "ingest list "+r.RelPath, r.Error)
	}
	if failures < len(random) {
		t.Errorf("%d rows with a message, want at least the %d broken files of random bytes", failures, len(random))
	}
	for _, rel := range random {
		r := f.row(rel)
		if r.State != ingestlist.Failed {
			t.Errorf("%s (random bytes) = %s, want %s", rel, r.State, ingestlist.Failed)
		}
		if strings.Contains(r.Error, "暗号化") {
			t.Errorf("%s (random bytes) is called encrypted: %s", rel, r.Error)
		}
	}
	// The English chain is kept, in the log only.
	if log := f.log(); !strings.Contains(log, "詳細（英語）: ") {
		t.Errorf("indexing_log.txt holds no English detail of a failure:\n%s", log)
	}

	for _, fv := range webFailures(t, f) {
		checkNoInternals(t, f, "web "+fv.Path, fv.Msg)
	}
	if !haveCorpus {
		testutil.CorpusMissing(t, "corpus %s absent: fixtures and generated files checked only", corpus)
	}
}

// checkNoInternals fails the test when msg holds the fixture's folder, a
// part of its path with a separator, an English error chain or a package
// prefix.
func checkNoInternals(t *testing.T, f *fixture, where, msg string) {
	t.Helper()
	base := filepath.Dir(f.ws)
	parts := strings.FieldsFunc(base, func(r rune) bool { return r == '/' || r == '\\' })
	bad := ""
	for i := range parts {
		if i > 0 && (strings.Contains(msg, parts[i-1]+"/"+parts[i]) || strings.Contains(msg, parts[i-1]+`\`+parts[i])) {
			bad = "a path of the test's folder"
		}
	}
	switch {
	case strings.Contains(msg, base) || strings.Contains(msg, filepath.Base(base)):
		bad = "the test's folder"
	case strings.Contains(msg, f.root) || strings.Contains(msg, "共有/営業") || strings.Contains(msg, `共有\営業`):
		bad = "the source folder"
	case englishChain.MatchString(msg):
		bad = "an English error chain"
	case packagePrefix.MatchString(msg):
		bad = "a package prefix"
	}
	if bad != "" {
		t.Errorf("%s: message holds %s: %q", where, bad, msg)
	}
}

// webFailures runs `fumibako serve` on the fixture's workspace and returns
// the failure list its API shows.
func webFailures(t *testing.T, f *fixture) []struct{ Path, Msg string } {
	t.Helper()
	cmd := f.cmd("serve", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve: read the URL line: %v", err)
	}
	url := strings.TrimSpace(line[strings.Index(line, "http"):])
	go io.Copy(io.Discard, out)
	client := http.Client{Timeout: time.Minute}
	resp, err := client.Get(url + "api/failures")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Rows []struct{ Path, Msg string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/failures = %d, %v", resp.StatusCode, err)
	}
	if len(v.Rows) == 0 {
		t.Fatal("the web API lists no failure")
	}
	return v.Rows
}

// copyTestdata copies the committed fixtures with a target extension
// under repo's internal/**/testdata into dst, keeping their paths; the
// .cfb fixtures of package officefile go under the extension of their
// program. It returns how many it copied.
func copyTestdata(t *testing.T, repo, dst string) int {
	t.Helper()
	n := 0
	cfbExt := map[string]string{"xls-": ".xls", "doc-": ".doc", "ppt-": ".ppt", "password-ooxml": ".xlsx", "rights-ooxml": ".docx"}
	filepath.WalkDir(filepath.Join(repo, "internal"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(p), "/testdata/") {
			return err
		}
		rel, _ := filepath.Rel(repo, p)
		name := rel
		if strings.HasSuffix(p, ".cfb") {
			for prefix, ext := range cfbExt {
				if strings.HasPrefix(d.Name(), prefix) {
					name = rel + ext
				}
			}
		}
		if !extract.IsTarget(filepath.Base(name)) {
			return nil
		}
		copyFile(t, p, filepath.Join(dst, name))
		n++
		return nil
	})
	if n == 0 {
		t.Fatal("no committed fixtures found under internal/**/testdata")
	}
	return n
}

func copyTree(t *testing.T, src, dst string, keep func(string) bool) {
	t.Helper()
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		copyFile(t, p, filepath.Join(dst, rel))
		return nil
	})
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	putFile(t, dst, data)
}

func putFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeBroken writes the generated broken files into dir: random bytes
// (seeded) and an empty file under every extension of brokenExts, ZIP
// packages of each format cut short at several points, and the committed
// compound files (.xls, .doc, .ppt) cut short. It returns the ingest-list
// paths of the random-bytes files.
func writeBroken(t *testing.T, repo, dir string) []string {
	t.Helper()
	rng := rand.New(rand.NewSource(16))
	var random []string
	for _, ext := range brokenExts {
		b := make([]byte, 6000)
		rng.Read(b)
		// A NUL in the first bytes, as ciphertext would have: the case
		// the reference called encrypted.
		b[7] = 0
		putFile(t, filepath.Join(dir, "random", "random"+ext), b)
		random = append(random, "broken/random/random"+ext)
		putFile(t, filepath.Join(dir, "empty", "empty"+ext), nil)
	}
	// ZIP packages of each format, cut short.
	tmp := t.TempDir()
	packages := map[string]func(string) error{
		".xlsx": func(p string) error {
			return testcorpus.WriteXlsx(p, map[string][][]string{"見積": {{"品名", "数量"}, {"部品A", "3"}}})
		},
		".docx": func(p string) error { return testcorpus.WriteDocx(p, []string{"報告書", "本文の段落"}) },
		".pptx": func(p string) error { return testcorpus.WritePptx(p, [][]string{{"提案", "一枚目"}}) },
	}
	var whole [][2]string // ext, path
	for ext, write := range packages {
		p := filepath.Join(tmp, "whole"+ext)
		if err := write(p); err != nil {
			t.Fatal(err)
		}
		whole = append(whole, [2]string{ext, p})
	}
	for _, fx := range []struct{ rel, ext string }{
		{"internal/extract/odf/testdata/text.odt", ".odt"},
		{"internal/extract/odf/testdata/sheet.ods", ".ods"},
		{"internal/extract/xlsx/testdata/sheetjs/short.xlsb", ".xlsb"},
		{"internal/extract/testdata/legacy/word.doc", ".doc"},
		{"internal/extract/testdata/legacy/slides.ppt", ".ppt"},
		{"internal/officefile/testdata/xls-rc4-default.cfb", ".xls"},
		{"internal/extract/pdf/testdata/lo-horizontal.pdf", ".pdf"},
	} {
		whole = append(whole, [2]string{fx.ext, filepath.Join(repo, filepath.FromSlash(fx.rel))})
	}
	for _, w := range whole {
		data, err := os.ReadFile(w[1])
		if err != nil {
			t.Fatalf("committed fixture: %v", err)
		}
		for _, cut := range []int{30, len(data) / 2, len(data) - 20} {
			if cut <= 0 || cut >= len(data) {
				continue
			}
			putFile(t, filepath.Join(dir, "truncated", strings.TrimPrefix(w[0], ".")+"-"+strconv.Itoa(cut)+w[0]), data[:cut])
		}
	}
	// A ZIP whose one part is not what its format needs.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("xl/workbook.xml")
	w.Write([]byte("<workbook"))
	zw.Close()
	putFile(t, filepath.Join(dir, "truncated", "bad-xml.xlsx"), buf.Bytes())
	if runtime.GOOS != "windows" {
		// A file the worker may not read.
		p := filepath.Join(dir, "denied", "denied.txt")
		putFile(t, p, []byte("読めない"))
		os.Chmod(p, 0)
		if os.Getuid() == 0 {
			os.Chmod(p, 0o644) // root reads it anyway
		}
	}
	return random
}
