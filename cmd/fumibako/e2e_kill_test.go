package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/workspace"
)

// checkComplete runs a last index to completion and checks the invariants
// every crash test ends with: each file 済 or 失敗, one row per file, every
// 済 file's text found, no staging or temporary files left.
func checkComplete(t *testing.T, f *fixture, files []testcorpus.File) {
	t.Helper()
	f.env = nil
	f.mustRun("index", "--workers", "2")
	l := f.list()
	if len(l.Lines) != len(l.Rows) || len(l.Rows) != len(files) {
		t.Fatalf("ingest list: %d lines, %d rows, want %d each", len(l.Lines), len(l.Rows), len(files))
	}
	done := 0
	for _, file := range files {
		r := f.row(file.Rel)
		switch r.State {
		case ingestlist.Done:
			done++
			out, _, code := f.run("search", file.Token)
			if code != 0 || !strings.Contains(out, filepath.Base(file.Rel)) {
				t.Errorf("search %s (%s): exit %d", file.Token, file.Rel, code)
			}
		case ingestlist.Failed:
			t.Logf("%s failed: %s", file.Rel, r.Error)
		default:
			t.Errorf("%s: state %s after a complete run", file.Rel, r.State)
		}
	}
	if done < len(files)*9/10 {
		t.Errorf("only %d of %d files 済", done, len(files))
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers: %q", lo)
	}
}

func TestKillAtRandomMoments(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, 240, 11)
	if err != nil {
		t.Fatal(err)
	}
	before := checksums(t, f.root)
	f.mustRun("folder", "add", f.root)
	rng := rand.New(rand.NewSource(3))
	kills, _ := killRuns(t, f, rng, killPlan{runs: 200, kills: 24, minDelay: 5, maxDelay: 600, floor: 20,
		touch: func() {
			for j := 0; j < 120; j++ {
				p := filepath.Join(f.root, files[rng.Intn(len(files))].Rel)
				os.Chtimes(p, time.Now(), time.Now().Add(time.Duration(rng.Intn(100000))*time.Second))
			}
		}})
	if kills < 20 {
		t.Fatalf("only %d kills", kills)
	}
	checkComplete(t, f, files)
	after := checksums(t, f.root)
	for p, sum := range before {
		if strings.Fields(after[p])[0] != strings.Fields(sum)[0] {
			t.Errorf("source %s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("file written beside the sources: %s", p)
		}
	}
}

// TestCrashBetweenSteps kills the coordinator between the two steps of
// each write-ordering rule of package indexer (doc.go) and checks that the
// next run repairs everything.
func TestCrashBetweenSteps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	// A point with " rotated" closes the batch file at every commit and
	// commits whenever the coordinator is idle: batch files closed and
	// deleted during the run.
	points := []string{"after-list-rewrite", "after-start-record:3", "after-batch-append:2", "after-batch-sync:2",
		"after-publish:1", "after-publish:3", "after-pending-remove", "after-rewriting", "before-batch-delete", "before-ended",
		"after-batch-sync:4 rotated", "after-publish:4 rotated", "before-closed-batch-delete:1 rotated", "before-closed-batch-delete:2 rotated"}
	for _, name := range points {
		point, rotated := strings.CutSuffix(name, " rotated")
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			n, seed := 18, int64(5)
			if rotated {
				// More folders, so that several closed batch files are
				// deleted before the run's end whatever the timing (a
				// worker answers up to worker.Depth files in one write:
				// fewer pauses, fewer commits).
				n = 200
			}
			files, err := testcorpus.Generate(f.root, n, seed)
			if err != nil {
				t.Fatal(err)
			}
			f.mustRun("folder", "add", f.root)
			if strings.HasPrefix(point, "after-pending-remove") {
				f.mustRun("index")
				os.Remove(filepath.Join(f.root, files[0].Rel))
				files = files[1:]
			}
			f.env = []string{"FUMIBAKO_TEST_CRASH_AT=" + point}
			if rotated {
				f.env = append(f.env, "FUMIBAKO_TEST_BATCH_ROTATE=1", "FUMIBAKO_TEST_COMMIT_EVERY=0s")
			}
			_, _, code := f.run("index", "--workers", "2")
			if code != -1 && code != 137 {
				t.Fatalf("index with crash point %s: exit %d, want killed", point, code)
			}
			checkComplete(t, f, files)
			if strings.HasPrefix(point, "after-pending-remove") {
				if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "pending_remove.tsv")); err == nil {
					t.Errorf("pending_remove.tsv left after publishing")
				}
			}
		})
	}
}

// TestInterruptedTwiceFails: a file in flight when the whole run is killed
// twice in a row fails with the seed's message on the next run.
func TestInterruptedTwiceFails(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f := newFixture(t)
	f.write("stuck.txt", "止まる\n")
	f.write("ok.txt", "大丈夫\n")
	f.mustRun("folder", "add", f.root)
	for i := 0; i < 2; i++ {
		f.env = []string{"FUMIBAKO_TEST_FAULT=hang:stuck"}
		c := f.cmd("index", "--workers", "1")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		count := i + 1
		// ok.txt is handed off just before stuck.txt: the kill waits for its
		// row too, or it would be in flight as well (and fail with stuck).
		waitFor(t, func() bool {
			if !journalStartedCount(f, "stuck.txt", count) {
				return false // the list is written before the first 始
			}
			r, ok := f.list().Lookup(`営業\ok.txt`)
			return ok && r.State == ingestlist.Done
		})
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
	}
	f.env = nil
	out := f.mustRun("index")
	if !strings.Contains(out, "取り込み中に 2 回続けて強制終了したファイルは、失敗としてスキップします: 営業\\stuck.txt") {
		t.Errorf("log:\n%s", out)
	}
	// The file failed by the two kills is counted in the end summary too.
	if !strings.Contains(out, "インデックス作成が完了しました。（成功: 0 件 / 失敗: 1 件）") {
		t.Errorf("summary does not count the failed file:\n%s", out)
	}
	if r := f.row("stuck.txt"); r.State != ingestlist.Failed || r.Error != journal.MsgInterrupted(2) {
		t.Errorf("row = %+v", r)
	}
	if r := f.row("ok.txt"); r.State != ingestlist.Done {
		t.Errorf("ok.txt row = %+v", r)
	}
}

// journalStarts returns the counts of the 始 records whose path contains
// name.
func journalStarts(f *fixture, name string) []int {
	data, _ := os.ReadFile(filepath.Join(f.ws, "work", "store", "journal", "ingest.tsv"))
	var counts []int
	for _, line := range strings.Split(string(data), "\r\n") {
		fields := strings.Split(line, "\t")
		if len(fields) == 3 && fields[0] == "始" && strings.Contains(fields[1], name) {
			n, _ := strconv.Atoi(fields[2])
			counts = append(counts, n)
		}
	}
	return counts
}

// journalStartedCount reports a 始 record for name with the given count.
func journalStartedCount(f *fixture, name string, count int) bool {
	return slices.Contains(journalStarts(f, name), count)
}

// journalStarted reports any 始 record for name.
func journalStarted(f *fixture, name string) bool {
	return len(journalStarts(f, name)) > 0
}

// TestCrashBeforeSummary: a run killed after publishing but before it
// brings the index summary up to date leaves the summary of the run
// before and the index marked as changing (indexer rule 7); searches
// still find what was published (the mark makes them check folder times,
// and the changed folders are read directly), and the next run writes the
// summary again and clears the mark.
func TestCrashBeforeSummary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, 18, 5)
	if err != nil {
		t.Fatal(err)
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	sums, _ := filepath.Glob(filepath.Join(f.ws, "work", "store", "content", ".fumibako-summary.*"))
	if len(sums) != 1 {
		t.Fatalf("summaries after the first run: %q", sums)
	}
	before, _ := os.ReadFile(sums[0])
	// A new file in an existing folder and one in a new folder.
	dir := filepath.Dir(files[0].Rel)
	f.write(filepath.Join(dir, "追加.txt"), "あとから足した語 zzaddedzz\n")
	f.write(filepath.Join(dir, "新しい", "更に.txt"), "新しいフォルダの語 zznewdirzz\n")
	f.env = []string{"FUMIBAKO_TEST_CRASH_AT=before-summary"}
	if _, _, code := f.run("index", "--workers", "2"); code != -1 && code != 137 {
		t.Fatalf("index with crash point before-summary: exit %d, want killed", code)
	}
	f.env = nil
	if after, _ := os.ReadFile(sums[0]); string(after) != string(before) {
		t.Fatalf("the summary changed although the run was killed before writing it")
	}
	marks, _ := filepath.Glob(filepath.Join(f.ws, "work", "store", "content", ".fumibako-changing.*"))
	if len(marks) != 1 {
		t.Fatalf("changing marks after the kill: %q, want one", marks)
	}
	for _, token := range []string{"zzaddedzz", "zznewdirzz", files[1].Token} {
		if out, _, code := f.run("search", token); code != 0 || !strings.Contains(out, token) {
			t.Errorf("search %s with the old summary: exit %d, %q", token, code, out)
		}
	}
	files = append(files, testcorpus.File{Rel: filepath.Join(dir, "追加.txt"), Token: "zzaddedzz"},
		testcorpus.File{Rel: filepath.Join(dir, "新しい", "更に.txt"), Token: "zznewdirzz"})
	checkComplete(t, f, files)
	if after, _ := os.ReadFile(sums[0]); string(after) == string(before) {
		t.Errorf("the next run did not write the summary again")
	}
	if _, err := os.Stat(marks[0]); !os.IsNotExist(err) {
		t.Errorf("the changing mark is still there after a complete run: %v", err)
	}
}

// TestIssue35BatchRecovery: a run killed with records in its batch file
// and folders unpublished, then a start killed after publishing them from
// that file but before deleting it (or while publishing them), then a
// complete run: no file lost, one row per file, every file searchable, no
// batch file left.
func TestIssue35BatchRecovery(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	for _, second := range []string{"before-old-batch-delete", "after-publish:1"} {
		t.Run(second, func(t *testing.T) {
			f := newFixture(t)
			files, err := testcorpus.Generate(f.root, 18, 5)
			if err != nil {
				t.Fatal(err)
			}
			f.mustRun("folder", "add", f.root)
			for _, point := range []string{"after-batch-sync:2", second} {
				f.env = []string{"FUMIBAKO_TEST_CRASH_AT=" + point}
				if _, _, code := f.run("index", "--workers", "2"); code != -1 && code != 137 {
					t.Fatalf("index with crash point %s: exit %d, want killed", point, code)
				}
				ents, _ := os.ReadDir(filepath.Join(f.ws, "work", "store", "batch"))
				if len(ents) == 0 {
					t.Fatalf("no batch file left by the run killed at %s", point)
				}
			}
			checkComplete(t, f, files)
		})
	}
}

// TestKilledBeforeTheCommitKeepsResults: a kill after a file's record is
// in the batch file but before the group commit wrote its row leaves the
// file finished, not interrupted: the next start takes its result from
// the record (its row 済, no 始 for it in the next run, the log says how
// many), and redoes only the files without one.
func TestKilledBeforeTheCommitKeepsResults(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, 12, 9)
	if err != nil {
		t.Fatal(err)
	}
	f.mustRun("folder", "add", f.root)
	f.env = []string{"FUMIBAKO_TEST_CRASH_AT=after-batch-append:3"}
	if _, _, code := f.run("index", "--workers", "1"); code != -1 && code != 137 {
		t.Fatalf("index: exit %d, want killed", code)
	}
	store := filepath.Join(f.ws, "work", "store")
	paths, err := content.ListBatches(filepath.Join(store, "batch"))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := content.LatestRecords(paths)
	if err != nil {
		t.Fatal(err)
	}
	// The records whose rows the kill lost (the others were committed).
	kept := map[string]bool{}
	for k, rec := range recs {
		if row, ok := f.list().Lookup(rec.Path); rec.Version > 0 && ok && row.State != ingestlist.Done {
			kept[k] = true
		}
	}
	jl, err := journal.ReadFile(filepath.Join(store, "journal", "ingest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var redo []string
	for _, r := range jl.Records {
		if r.Kind != journal.KindStart || kept[workspace.FoldKey(r.Fields[0])] {
			continue
		}
		if row, ok := f.list().Lookup(r.Fields[0]); ok && row.State != ingestlist.Done {
			redo = append(redo, r.Fields[0])
		}
	}
	if len(kept) == 0 || len(redo) == 0 {
		t.Fatalf("after the kill: %d records without their rows, %d jobs without records, want some of each", len(kept), len(redo))
	}
	f.env = nil
	f.mustRun("index", "--workers", "1")
	log := f.log()
	if want := fmt.Sprintf("前回の中断の前に取り込みを終えていたファイル %d 件は、その結果を使います。", len(kept)); !strings.Contains(log, want) {
		t.Errorf("log lacks %q:\n%s", want, log)
	}
	for _, rel := range redo {
		if !strings.Contains(log, journal.LogMovedLast(rel)) {
			t.Errorf("log lacks %q", journal.LogMovedLast(rel))
		}
	}
	jl, err = journal.ReadFile(filepath.Join(store, "journal", "ingest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range jl.Records {
		if r.Kind == journal.KindStart && kept[workspace.FoldKey(r.Fields[0])] {
			t.Errorf("%s ingested again: %v", r.Fields[0], r)
		}
	}
	for k := range kept {
		row, ok := f.list().Lookup(k)
		if !ok || row.State != ingestlist.Done || !row.HasTSVCount || row.Version == 0 || row.IngestedAt == "" {
			t.Errorf("row of %s = %+v, want 済 with its count, version and date", k, row)
		}
	}
	checkComplete(t, f, files)
}
