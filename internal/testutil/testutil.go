// Package testutil is what tests share: golden files (the one -update
// flag), committed fixtures under testdata/, the shared corpus and the
// tools CI installs. Its gates cannot go quiet: with FUMIBAKO_NO_SKIP=1
// (set by .ci/run for `make test`) a missing fixture is always a failure
// and a missing tool (LibreOffice, Chromium, …) or a missing capability of
// the machine fails the run instead of skipping the test. The corpus lives
// outside the repository (../shared/corpus, absent from a clean clone), so
// its gate skips unless FUMIBAKO_CORPUS_REQUIRED=1. Nothing here is used by
// the fumibako binary. The sub-package browser starts headless chromium
// for the tests and the benchmark that drive the web UI; it stands apart
// so that chromedp is linked only into those.
package testutil

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The environment switches.
const (
	// EnvNoSkip turns the skips of Require and Unavailable into failures.
	EnvNoSkip = "FUMIBAKO_NO_SKIP"
	// EnvCorpusRequired turns the skip of Corpus into a failure.
	EnvCorpusRequired = "FUMIBAKO_CORPUS_REQUIRED"
)

// update is the -update flag of every test binary that imports testutil:
// Golden and Update rewrite what they compare with.
var update = flag.Bool("update", false, "rewrite the golden files and generated fixtures under testdata/")

// Update reports whether the test run was asked to rewrite its golden
// files (go test -update).
func Update() bool { return *update }

func envSet(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0"
}

// NoSkip reports whether skips of CI's tools and fixtures fail the run.
func NoSkip() bool { return envSet(EnvNoSkip) }

// Unavailable stops the test because something CI provides is missing
// here (a tool, a capability of a Linux machine): a skip with the reason,
// or a failure with FUMIBAKO_NO_SKIP=1.
func Unavailable(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if NoSkip() {
		tb.Fatalf(format+" ("+EnvNoSkip+" is set: CI provides it)", args...)
	}
	tb.Skipf(format, args...)
}

// Require returns the path of the named program (soffice, chromium, rg),
// or stops the test through Unavailable when none of the names is found.
func Require(tb testing.TB, names ...string) string {
	tb.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	Unavailable(tb, "%s not installed (make setup)", strings.Join(names, " or "))
	return ""
}

// Golden compares got with the file at path; with -update it first
// writes got there (creating its folder).
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs:\n got: %q\nwant: %q", path, got, want)
	}
}

// GoldenPath is testdata/<top-level test>/<name>.golden, the place of a
// test's golden files.
func GoldenPath(tb testing.TB, name string) string {
	top, _, _ := strings.Cut(tb.Name(), "/")
	return filepath.Join("testdata", top, name+".golden")
}

// Fixture returns the bytes of the committed fixture testdata/<elem…>; a
// missing one fails the test.
func Fixture(tb testing.TB, elem ...string) []byte {
	tb.Helper()
	b, err := os.ReadFile(FixturePath(elem...))
	if err != nil {
		tb.Fatalf("committed fixture: %v", err)
	}
	return b
}

// FixturePath is testdata/<elem…>.
func FixturePath(elem ...string) string {
	return filepath.Join(append([]string{"testdata"}, elem...)...)
}

// Fixtures returns the committed fixtures matching testdata/<pattern>,
// sorted; none at all fails the test (a glob that matches nothing would
// otherwise test nothing).
func Fixtures(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, err := filepath.Glob(FixturePath(pattern))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no committed fixtures match %s (%v)", FixturePath(pattern), err)
	}
	return files
}

// RepoRoot returns the repository root: the nearest folder above the
// working directory (the test's package) holding go.mod.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatal("repository root (go.mod) not found above the working directory")
		}
		dir = up
	}
}

// CorpusDir is ../shared/corpus relative to the repository root, whether
// or not it exists.
func CorpusDir(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(filepath.Dir(RepoRoot(tb)), "shared", "corpus")
}

// Corpus returns the shared corpus folder, symbolic links resolved
// (filepath.WalkDir does not follow a linked root), or stops the test
// when it is absent: a skip with its path, or a failure with
// FUMIBAKO_CORPUS_REQUIRED=1.
func Corpus(tb testing.TB) string {
	tb.Helper()
	dir := CorpusDir(tb)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		CorpusMissing(tb, "corpus %s absent", dir)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
}

// CorpusMissing stops a test whose corpus files are missing (the folder,
// or the files of a kind in it): a skip, or a failure with
// FUMIBAKO_CORPUS_REQUIRED=1.
func CorpusMissing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if envSet(EnvCorpusRequired) {
		tb.Fatalf(format+" ("+EnvCorpusRequired+" is set)", args...)
	}
	tb.Skipf(format, args...)
}

// AddSeeds adds every committed fixture matching each testdata/<pattern>
// to f's seed corpus; a pattern matching none fails.
func AddSeeds(f *testing.F, patterns ...string) {
	f.Helper()
	for _, pattern := range patterns {
		for _, p := range Fixtures(f, pattern) {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

// Duration is how long a load or race test keeps going: the seconds the
// environment variable env holds (fractions allowed), else def. A value
// that is not a positive number fails the test.
func Duration(t testing.TB, env string, def time.Duration) time.Duration {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		return def
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a number of seconds", env, v)
	}
	return time.Duration(n * float64(time.Second))
}
