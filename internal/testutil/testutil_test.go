package testutil_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/testutil"
)

// recorder is a testing.TB whose Skipf and Fatalf record instead of
// stopping, so a test can see which of the two a gate chose.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Skipf(f string, args ...any)  { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Fatalf(f string, args ...any) { r.failed = fmt.Sprintf(f, args...) }
func (r *recorder) outcome() string {
	switch {
	case r.failed != "":
		return "fail"
	case r.skipped != "":
		return "skip"
	}
	return "pass"
}

// TestGates: a missing tool skips, and fails with FUMIBAKO_NO_SKIP=1; the
// corpus gate follows FUMIBAKO_CORPUS_REQUIRED only.
func TestGates(t *testing.T) {
	for _, tt := range []struct {
		name           string
		noSkip, corpus string
		gate           func(testing.TB)
		want           string
	}{
		{"tool found", "1", "", func(tb testing.TB) { testutil.Require(tb, "no-such-tool-x", "go") }, "pass"},
		{"tool missing", "", "", func(tb testing.TB) { testutil.Require(tb, "no-such-tool-x") }, "skip"},
		{"tool missing, no skip", "1", "", func(tb testing.TB) { testutil.Require(tb, "no-such-tool-x") }, "fail"},
		{"switch off with 0", "0", "", func(tb testing.TB) { testutil.Unavailable(tb, "x") }, "skip"},
		{"corpus missing", "1", "", func(tb testing.TB) { testutil.CorpusMissing(tb, "x") }, "skip"},
		{"corpus required", "", "1", func(tb testing.TB) { testutil.CorpusMissing(tb, "x") }, "fail"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(testutil.EnvNoSkip, tt.noSkip)
			t.Setenv(testutil.EnvCorpusRequired, tt.corpus)
			r := &recorder{TB: t}
			tt.gate(r)
			if got := r.outcome(); got != tt.want {
				t.Fatalf("outcome %s (skip %q, fail %q), want %s", got, r.skipped, r.failed, tt.want)
			}
		})
	}
}

func TestRepoRootAndCorpusDir(t *testing.T) {
	root := testutil.RepoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	if got, want := testutil.CorpusDir(t), filepath.Join(filepath.Dir(root), "shared", "corpus"); got != want {
		t.Fatalf("CorpusDir = %s, want %s", got, want)
	}
}

func TestGoldenPath(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		if got, want := testutil.GoldenPath(t, "x"), filepath.Join("testdata", "TestGoldenPath", "x.golden"); got != want {
			t.Fatalf("GoldenPath = %s, want %s", got, want)
		}
	})
}
