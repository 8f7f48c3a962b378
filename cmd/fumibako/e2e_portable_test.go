package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestPortableCorpusKillResume is the end-to-end run of the Windows test
// lane (make test-windows runs it under Wine; make test runs it here): a
// corpus under a Japanese path with spaces, a workbook with a sheet named
// CON and a file held open during the run; the first run is killed
// (TerminateProcess on Windows, as taskkill /F does) and leaves no worker
// behind, the second resumes, and a search finds every file.
func TestPortableCorpusKillResume(t *testing.T) {
	f := newFixture(t)
	sub := filepath.Join(f.root, "見積 2024 年度", "東京 支店")
	files, err := testcorpus.Generate(sub, 16, 5)
	if err != nil {
		t.Fatal(err)
	}
	con := filepath.Join(sub, "デバイス名 シート.xlsx")
	if err := testcorpus.WriteXlsx(con, map[string][][]string{"CON": {{"予約名シートの合言葉"}}, "aux.2024": {{"拡張子つき予約名"}}}); err != nil {
		t.Fatal(err)
	}
	held, err := os.Open(filepath.Join(sub, files[0].Rel))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	f.mustRun("folder", "add", f.root)

	// The first run is killed while its workers are busy.
	f.env = []string{"FUMIBAKO_TEST_FAULT=slow:."}
	c := f.cmd("index", "--workers", "2")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(f.ws, "work", "store", "journal", "ingest.tsv")
	var workers []int
	for i := 0; i < 400; i++ {
		if data, err := os.ReadFile(journal); err == nil && strings.Count(string(data), "\n始\t") >= 2 && running(c.Process.Pid, &workers) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	// No worker outlives the killed coordinator (issue 36: two Wine
	// workers of this test were still running an hour later).
	c.Process.Kill()
	c.Wait()
	for _, pid := range testutil.WaitGone(t, workers, 10*time.Second) {
		t.Errorf("worker %d outlived its killed coordinator by 10 s", pid)
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}

	f.env = nil
	out := f.mustRun("index", "--workers", "2")
	if !strings.Contains(out, "失敗: 0 件") {
		t.Fatalf("resumed run:\n%s\nlog:\n%s", out, f.log())
	}
	for _, file := range files {
		if out, _, code := f.run("search", file.Token); code != 0 || !strings.Contains(out, filepath.Base(file.Rel)) {
			t.Errorf("search %s: exit %d, output %q", file.Token, code, out)
		}
	}
	for word, sheet := range map[string]string{"予約名シートの合言葉": "CON", "拡張子つき予約名": "aux.2024"} {
		if out, _, code := f.run("search", word); code != 0 || !strings.Contains(out, "デバイス名 シート.xlsx") || !strings.Contains(out, sheet) {
			t.Errorf("search %s: exit %d, output %q", word, code, out)
		}
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers after the run: %q", lo)
	}
}

// running reports whether the coordinator's two workers run their own
// code (the Go runtime is up: more than one thread), naming them in
// workers. The kill waits for it: Wine 8 never starts a process whose
// parent is terminated while the process is being created (its loader
// waits on the wineserver forever, with one thread, and the job's
// kill-on-close does not reach it either), which is Wine's gap, not one a
// worker can close, since it never runs (issue 36); on Windows the worker
// starts and watches its coordinator.
func running(coordinator int, workers *[]int) bool {
	*workers = testutil.ChildrenOf(coordinator)
	for _, w := range *workers {
		if testutil.Threads(w) < 2 {
			return false
		}
	}
	return len(*workers) == 2
}
