package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// faultTexts are the kind-specific parts of the workspace-fault message.
var faultTexts = map[string]string{
	"ENOSPC": "ディスクに空きが無いため、インデックス作成を中止しました",
	"EROFS":  "作業フォルダが読み取り専用のため、インデックス作成を中止しました",
	"EIO":    "読み書きのエラーが起きたため、インデックス作成を中止しました",
	"EACCES": "に書き込めないため、インデックス作成を中止しました",
}

// TestIssue15WorkspaceFaults makes the workspace fail (the testhooks seam
// of package workspace, FUMIBAKO_TEST_WSFAULT) at each write step of a
// run, with ENOSPC and EROFS (and EIO, EACCES for a few steps), and checks
// that the run stops with exit 1 and the Japanese message, that no file is
// recorded as failed, and that the next run, with the workspace writable
// again, ends with every file 済 and searchable.
func TestIssue15WorkspaceFaults(t *testing.T) {
	tests := []struct {
		spec string
		// removed: a first clean run, then one source deleted, so that the
		// faulty run has removals to record (pending_remove.tsv).
		removed bool
		// done: every file was 済 before the fault, so the next run must
		// find nothing to ingest (the rows appended before it were kept).
		done bool
		// large: the tree also holds a text file too large for the batch
		// path, whose place TSVs the worker writes into a stage folder.
		large bool
	}{
		{spec: "scratch:1:ENOSPC"}, // the run's scratch folder
		// A worker's own write: the stage of a large file's place TSVs
		// (a worker makes its per-file scratch folder only for a reader
		// that writes one, and none of these files does, issue 35).
		{spec: "worker/place-tsv:1:EROFS", large: true},
		{spec: "batch:1:ENOSPC"}, // the batch file's folder (issue 35)
		{spec: "batch:4:EIO"},    // a record of a small file's places
		{spec: "batch:2:EROFS"},  // the batch file's header
		{spec: "swap:2:EROFS"},   // swapping a file's TSVs in
		{spec: "swap:4:ENOSPC"},
		{spec: "list-rewrite:1:ENOSPC"}, // the rewrite after the crawl
		{spec: "list-rewrite:1:EROFS"},
		{spec: "list-rename:2:EACCES"}, // the final rewrite (a list held open)
		{spec: "list-append:3:ENOSPC"}, // a group commit's result rows
		{spec: "list-append:2:EROFS"},
		{spec: "journal-create:1:EROFS"},  // the new journal
		{spec: "journal-append:3:ENOSPC"}, // 始 / 出 records
		{spec: "journal-append:5:EROFS"},
		{spec: "publish:1:ENOSPC"}, // a folder's body index
		{spec: "publish:3:EROFS"},
		{spec: "summary:1:ENOSPC"}, // the index's summary
		{spec: "summary:1:EROFS"},
		{spec: "run-stats:1:EROFS"},
		{spec: "pending-remove:1:ENOSPC", removed: true},
		{spec: "list-append:3:ENOSPC:once"}, // one failed write, the rest work
		{spec: "batch:3:EROFS:once"},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.spec, "/", "-"), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			n := 12
			if strings.HasPrefix(tt.spec, "list-append:") {
				// A group commit appends its rows in one write, and
				// workers answer up to worker.Depth files at once: more
				// files, so that the run makes a third append.
				n = 60
			}
			files, err := testcorpus.Generate(f.root, n, 3)
			if err != nil {
				t.Fatal(err)
			}
			if tt.large {
				// About 6 MB of text, over the batch path's 4 MiB.
				token := "巨大ファイル固有語"
				text := strings.Repeat("大きなファイルの本文です。見積と請求の記録。\n", 90000) + token + "\n"
				if err := os.WriteFile(filepath.Join(f.root, "大きい.txt"), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, testcorpus.File{Rel: "大きい.txt", Token: token})
			}
			f.mustRun("folder", "add", f.root)
			if tt.removed {
				f.mustRun("index", "--workers", "2")
				os.Remove(filepath.Join(f.root, filepath.FromSlash(files[0].Rel)))
				files = files[1:]
				for _, file := range files[:4] {
					p := filepath.Join(f.root, filepath.FromSlash(file.Rel))
					data, _ := os.ReadFile(p)
					os.WriteFile(p, append(data, '\n'), 0o644) // updated: ingested again
				}
			}

			f.env = []string{"FUMIBAKO_TEST_WSFAULT=" + tt.spec}
			if strings.HasPrefix(tt.spec, "list-append:") {
				// Commits at every pause, as the rows of 60 files would
				// otherwise take one or two.
				f.env = append(f.env, "FUMIBAKO_TEST_COMMIT_EVERY=0s")
			}
			out, errOut, code := f.run("index", "--workers", "2")
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			t.Logf("stderr: %s", strings.TrimSpace(errOut))
			errno := strings.Split(tt.spec, ":")[2]
			if !strings.Contains(errOut, faultTexts[errno]) || !strings.Contains(errOut, "続きから取り込みます") {
				t.Errorf("stderr lacks the fault message %q:\n%s", faultTexts[errno], errOut)
			}
			if strings.Contains(errOut, "no space left") || strings.Contains(errOut, "read-only file system") {
				t.Errorf("English error chain shown to the user:\n%s", errOut)
			}
			if !strings.Contains(f.log(), "＜エラー＞") {
				t.Errorf("the log lacks the error:\n%s", f.log())
			}
			if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "ingest_status.tsv")); err == nil {
				for _, r := range f.list().Rows {
					if r.State == ingestlist.Failed || r.Error != "" {
						t.Errorf("%s recorded as %s (%s) by a workspace fault", r.RelPath, r.State, r.Error)
					}
				}
			}

			// Where the coordinator could still write (the fault was a
			// worker's, or a single write), what was finished before the
			// fault is published by the faulty run itself: searchable now.
			if strings.HasPrefix(tt.spec, "worker/") || strings.HasSuffix(tt.spec, ":once") {
				done := 0
				for _, file := range files {
					if r := f.row(file.Rel); r.State == ingestlist.Done {
						done++
						if out, _, code := f.run("search", file.Token); code != 0 || !strings.Contains(out, filepath.Base(file.Rel)) {
							t.Errorf("%s is 済 but not searchable after the faulty run", file.Rel)
						}
					}
				}
				t.Logf("%d files 済 and searchable after the faulty run", done)
			}

			// Space is back: the next run finishes every file.
			f.env = nil
			out, errOut, code = f.run("index", "--workers", "2")
			if code != 0 {
				t.Fatalf("next run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			if strings.Contains(out, "失敗: 0 件") == false {
				t.Errorf("next run reports failures:\n%s", out)
			}
			l := f.list()
			if len(l.Rows) != len(files) {
				t.Errorf("ingest list has %d rows, want %d", len(l.Rows), len(files))
			}
			for _, file := range files {
				if r := f.row(file.Rel); r.State != ingestlist.Done {
					t.Errorf("%s: %s (%s) after the next run", file.Rel, r.State, r.Error)
					continue
				}
				if out, _, code := f.run("search", file.Token); code != 0 || !strings.Contains(out, filepath.Base(file.Rel)) {
					t.Errorf("search %s: exit %d, output %q", file.Token, code, out)
				}
			}
			if lo := leftovers(t, f.ws); len(lo) > 0 {
				t.Errorf("leftovers after the next run: %q", lo)
			}
			if tt.done && !strings.Contains(out, "取り込みが必要なファイルはありません。") {
				t.Errorf("the next run ingested files again:\n%s", out)
			}
			if strings.Contains(out, "強制終了") {
				t.Logf("next run counted files in flight at the fault as interrupted once")
			}
			if strings.HasSuffix(tt.spec, ":once") && strings.Contains(out, "強制終了") {
				t.Errorf("files in flight at the fault were counted as interrupted:\n%s", out)
			}
		})
	}
}
