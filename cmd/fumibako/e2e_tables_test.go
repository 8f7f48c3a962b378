package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/testutil"
)

var timeRe = regexp.MustCompile(`\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}`)

// TestTablesAndJSON: status, folder list and failures line up by display
// width with Japanese, half-width and ASCII index names, and their --json
// lines carry the documented fields (README "--json").
func TestTablesAndJSON(t *testing.T) {
	f := newFixture(t)
	base := filepath.Dir(filepath.Dir(f.root))
	roots := map[string]string{"営業": f.root, "ｹｲﾘ": filepath.Join(base, "keiri"), "sales2024": filepath.Join(base, "s")}
	for _, p := range roots {
		os.MkdirAll(p, 0o755)
	}
	f.write("a.txt", "りんご\n")
	f.write("表.xls", "\x00\x01 broken")
	os.WriteFile(filepath.Join(roots["ｹｲﾘ"], "b.txt"), []byte("みかん\n"), 0o644)
	f.mustRun("folder", "add", f.root)
	f.mustRun("folder", "add", roots["ｹｲﾘ"], "--name", "ｹｲﾘ")
	f.mustRun("folder", "add", roots["sales2024"], "--name", "sales2024")
	f.mustRun("index")
	f.mustRun("folder", "disable", "sales2024")
	norm := func(s string) string {
		s = strings.ReplaceAll(s, base, "<base>")
		s = strings.ReplaceAll(s, f.ws, "<ws>")
		s = strings.ReplaceAll(s, filepath.ToSlash(base), "<base>")
		return timeRe.ReplaceAllString(s, "yyyy/MM/dd HH:mm:ss")
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"status", []string{"status"}},
		{"status.json", []string{"status", "--json"}},
		{"folder-list", []string{"folder", "list"}},
		{"folder-list.json", []string{"folder", "list", "--json"}},
		{"failures", []string{"failures"}},
		{"failures.json", []string{"failures", "--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testutil.Golden(t, testutil.GoldenPath(t, tc.name), []byte(norm(f.mustRun(tc.args...))))
		})
	}

	// index --json: the events of a run with one new file and the retry
	// of the failed one; the summary's warnings are log events.
	f.write("c.txt", "ぶどう\n")
	out := f.mustRun("index", "--json", "--retry-failed", "--workers", "1")
	// One worker: the files finish in target order.
	testutil.Golden(t, testutil.GoldenPath(t, "index.json"), []byte(norm(out)))
}
