package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/testutil/browser"
)

// TestWebPhase runs the web phase over a small indexed tree: keystrokes
// are timed, and neither the server nor a chromium process is left.
func TestWebPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	path := testutil.Require(t, browser.Names...)
	dir := t.TempDir()
	exe := filepath.Join(dir, "fumibako")
	if out, err := testcorpus.GoBuild("build", "-o", exe, "../../../cmd/fumibako"); err != nil {
		t.Fatalf("build fumibako: %v\n%s", err, out)
	}
	tree, err := searchcorpus.GenerateTree(filepath.Join(dir, "tree"), searchcorpus.TreeSpec{TextBytes: 1e6, MeanFileBytes: 5000, FilesPerFolder: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if err := freshWorkspace(ws, tree.Root()); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(exe, "--workspace", ws, "index", "--plain").CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	// chromedp makes the browser's profile under TMPDIR: its processes
	// are found by that folder afterwards.
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)

	queries := []string{"請求書", "議事録", searchcorpus.Absent}
	w, err := webPhase(exe, ws, path, filepath.Join(dir, "serve.log"), queries)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "serve.log"))
		t.Fatalf("web phase: %v\nserve:\n%s", err, log)
	}
	t.Logf("p50 %v, p90 %v, max %v, %d of %d keystrokes timed, %d missed, %d empty", w.P50, w.P90, w.Max, w.Timed, w.Keystrokes, w.Missed, w.Empty)
	// Every keystroke from a query's second character on starts one
	// search: it shows a hit, ends without one, or is replaced first.
	if w.Timed == 0 || w.Timed != len(w.TimingsMs) || w.Keystrokes != 2+2+6 || w.Queries != 3 ||
		w.Timed+w.Empty+w.Missed != w.Keystrokes {
		t.Errorf("figures: %+v", w)
	}
	for _, ms := range w.TimingsMs {
		if ms <= 0 {
			t.Errorf("timing %v ms, want > 0: %v", ms, w.TimingsMs)
		}
	}
	if w.P50 <= 0 || w.P50 > w.P90 || w.P90 > w.Max {
		t.Errorf("p50 %v, p90 %v, max %v", w.P50, w.P90, w.Max)
	}
	if w.Empty == 0 {
		t.Error("the absent word's search is not counted as ending without a hit")
	}
	if left := testutil.ProcessesWith(ws, tmp); len(left) > 0 {
		t.Errorf("left running: %v", left)
	}
}
