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
	"strings"
	"testing"

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
