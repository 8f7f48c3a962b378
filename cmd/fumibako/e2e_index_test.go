package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

func TestIndexEndToEnd(t *testing.T) {
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, 36, 7)
	if err != nil {
		t.Fatal(err)
	}
	before := checksums(t, filepath.Dir(f.root))
	f.mustRun("folder", "add", f.root)
	out := f.mustRun("index", "--workers", "2")
	if !strings.Contains(out, "インデックス作成が完了しました。（成功: 36 件 / 失敗: 0 件）") {
		t.Fatalf("index output:\n%s", out)
	}
	l := f.list()
	if len(l.Rows) != len(files) || len(l.Lines) != len(files) {
		t.Fatalf("ingest list has %d rows / %d lines, want %d", len(l.Rows), len(l.Lines), len(files))
	}
	for _, file := range files {
		r := f.row(file.Rel)
		if r.State != ingestlist.Done {
			t.Errorf("%s: state %s (%s)", file.Rel, r.State, r.Error)
			continue
		}
		out, _, code := f.run("search", file.Token)
		if code != 0 || !strings.Contains(out, filepath.Base(file.Rel)) {
			t.Errorf("search %s: exit %d, output %q", file.Token, code, out)
		}
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers after the run: %q", lo)
	}
	// The run leaves a summary of the index, and a search for one file's
	// word skips the other folders unopened.
	sums, _ := filepath.Glob(filepath.Join(f.ws, "work", "store", "content", ".fumibako-summary.*"))
	if len(sums) != 1 {
		t.Errorf("summaries after the run: %q, want one", sums)
	}
	if _, errOut, _ := f.run("search", "--verbose", files[0].Token); !strings.Contains(errOut, "folders 1 (summary skipped ") || strings.Contains(errOut, "summary skipped 0,") {
		t.Errorf("search --verbose %s:\n%s", files[0].Token, errOut)
	}
	// Nothing in the sources changed and nothing was written beside them.
	after := checksums(t, filepath.Dir(f.root))
	for p, sum := range before {
		if after[p] != sum {
			t.Errorf("source %s changed", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("files beside the sources: %d before, %d after", len(before), len(after))
	}

	// An unchanged second run ingests nothing.
	start := time.Now()
	out = f.mustRun("index")
	if !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Fatalf("second run output:\n%s", out)
	}
	t.Logf("unchanged second run over %d files: %v", len(files), time.Since(start))
	if got := f.mustRun("status"); !strings.Contains(got, "営業") {
		t.Errorf("status output:\n%s", got)
	}
}

func TestIndexChanges(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "りんご\n")
	f.write("sub/b.txt", "みかん\n")
	f.write("c.txt", "ぶどう\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")

	// Deletion, rename, update.
	os.Remove(filepath.Join(f.root, "a.txt"))
	os.Rename(filepath.Join(f.root, "sub", "b.txt"), filepath.Join(f.root, "sub", "b2.txt"))
	f.write("c.txt", "ぶどう もも\n")
	out := f.mustRun("index")
	if !strings.Contains(out, "元ファイルが無くなった 2 件は、インデックスから除きます。") {
		t.Errorf("log lacks the deletion line:\n%s", out)
	}
	if _, ok := f.list().Lookup(`営業\a.txt`); ok {
		t.Errorf("row of the deleted file survived")
	}
	if _, _, code := f.run("search", "りんご"); code != 1 {
		t.Errorf("deleted file still found")
	}
	if out, _, code := f.run("search", "みかん"); code != 0 || !strings.Contains(out, "b2.txt") || strings.Contains(out, "b.txt\t") {
		t.Errorf("renamed file: exit %d %q", code, out)
	}
	if _, _, code := f.run("search", "もも"); code != 0 {
		t.Errorf("updated text not found")
	}

	// A root that goes missing keeps its rows.
	moved := f.root + "-moved"
	os.Rename(f.root, moved)
	out = f.mustRun("index")
	if !strings.Contains(out, "フォルダが見つからないため取り込みません") {
		t.Errorf("missing root not logged:\n%s", out)
	}
	if n := len(f.list().Rows); n != 2 {
		t.Errorf("rows after the root went missing: %d, want 2", n)
	}
	if _, _, code := f.run("search", "もも"); code != 0 {
		t.Errorf("index of a missing root not searchable")
	}
	os.Rename(moved, f.root)

	// Disabled roots are not crawled; removed roots lose their index.
	other := filepath.Join(filepath.Dir(f.root), "経理")
	os.MkdirAll(other, 0o755)
	f.mustRun("folder", "add", other)
	f.mustRun("folder", "disable", "営業")
	out = f.mustRun("index")
	if !strings.Contains(out, "取り込み対象外のため取り込みません") {
		t.Errorf("disabled root not logged:\n%s", out)
	}
	if _, _, code := f.run("search", "もも"); code != 0 {
		t.Errorf("index of an unchecked root not searchable")
	}
	f.mustRun("folder", "disable", "経理")
	_, errOut, code := f.run("index")
	if code != 1 || !strings.Contains(errOut, "取り込み対象のインデックスがありません。") {
		t.Errorf("no checked root: exit %d, %q", code, errOut)
	}
	f.mustRun("folder", "enable", "営業")
}

func TestIndexRetryFailed(t *testing.T) {
	f := newFixture(t)
	f.write("bin.txt", "\x00\x01\x02\x00binary")
	f.write("ok.txt", "テキスト\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	if r := f.row("bin.txt"); r.State != ingestlist.Failed || r.Error == "" {
		t.Fatalf("binary .txt row = %+v, want 失敗", r)
	}
	out := f.mustRun("failures")
	if !strings.Contains(out, "bin.txt") {
		t.Errorf("failures output:\n%s", out)
	}
	out = f.mustRun("index")
	if !strings.Contains(out, "前回取り込みに失敗し、その後更新されていないファイル 1 件はスキップします。") {
		t.Errorf("failed file not skipped:\n%s", out)
	}
	out = f.mustRun("index", "--retry-failed")
	if !strings.Contains(out, "1 件のファイルを取り込みます。") {
		t.Errorf("--retry-failed did not retry:\n%s", out)
	}
}

func TestIndexHangingFileTimesOut(t *testing.T) {
	f := newFixture(t)
	f.env = []string{"FUMIBAKO_TEST_FAULT=hang:stuck,crash:boom"}
	for i := 0; i < 6; i++ {
		f.write("ok"+string(rune('a'+i))+".txt", "正常なファイル\n")
	}
	f.write("stuck.txt", "止まるファイル\n")
	f.write("boom.txt", "落ちるファイル\n")
	f.mustRun("folder", "add", f.root)
	start := time.Now()
	f.mustRun("index", "--workers", "2", "--file-timeout", "2s")
	t.Logf("run with a hanging file: %v", time.Since(start))
	if r := f.row("stuck.txt"); r.State != ingestlist.Failed || r.Error != "2 秒以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）" {
		t.Errorf("hanging file row = %+v", r)
	}
	if r := f.row("boom.txt"); r.State != ingestlist.Failed || !strings.HasPrefix(r.Error, "取り込みのプロセスが異常終了しました") {
		t.Errorf("crashing file row = %+v", r)
	}
	for i := 0; i < 6; i++ {
		if r := f.row("ok" + string(rune('a'+i)) + ".txt"); r.State != ingestlist.Done {
			t.Errorf("ok file row = %+v", r)
		}
	}
}

func TestWorkerMemoryCap(t *testing.T) {
	f := newFixture(t)
	f.env = []string{"FUMIBAKO_TEST_FAULT=oom:big"}
	f.write("big.txt", "大きい\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--worker-memory", "200")
	if r := f.row("big.txt"); r.State != ingestlist.Failed || r.Error != "シート・文書が大きすぎて取り込めません（メモリが不足しました）" {
		t.Errorf("runaway file row = %+v", r)
	}
}

func TestSecondRunGetsLockMessage(t *testing.T) {
	f := newFixture(t)
	f.env = []string{"FUMIBAKO_TEST_FAULT=hang:stuck"}
	f.write("stuck.txt", "x\n")
	f.mustRun("folder", "add", f.root)
	first := f.cmd("index", "--file-timeout", "20s")
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	waitFor(t, func() bool { return strings.Contains(f.log(), "[1/1]") || journalHas(f, "始") })
	_, errOut, code := f.run("index")
	if code != 1 || !strings.Contains(errOut, "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。") {
		t.Fatalf("second run: exit %d, stderr %q", code, errOut)
	}
}

func journalHas(f *fixture, kind string) bool {
	data, _ := os.ReadFile(filepath.Join(f.ws, "work", "store", "journal", "ingest.tsv"))
	return strings.Contains(string(data), "\n"+kind+"\t")
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCloudOnlyFiles: the seed's table for files that exist only in the
// cloud (issue 9), end to end. A cloud-only file is never handed to a
// worker (no 始 in the journal; the worker would crash on it) and its rows
// follow the table.
func TestCloudOnlyFiles(t *testing.T) {
	f := newFixture(t)
	f.write("done-cloud.txt", "済のファイル\n")
	f.write("failed-cloud.txt", "\x00\x00binary")
	f.write("local.txt", "手元のファイル\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	doneRow, failedRow := f.row("done-cloud.txt"), f.row("failed-cloud.txt")
	f.write("new-cloud.txt", "新しい\n")
	f.write("done-cloud.txt", "変わった内容\n") // changed, but cloud-only now
	f.env = []string{"FUMIBAKO_TEST_CLOUD=-cloud", "FUMIBAKO_TEST_FAULT=crash:-cloud"}
	out := f.mustRun("index", "--retry-failed")
	if !strings.Contains(out, "クラウドにだけあるため取り込まなかったファイル 3 件") {
		t.Errorf("log lacks the cloud-only count:\n%s", out)
	}
	if journalStarted(f, "-cloud") {
		t.Errorf("a cloud-only file was handed to a worker")
	}
	if _, ok := f.list().Lookup(`営業\new-cloud.txt`); ok {
		t.Errorf("new cloud-only file got a row")
	}
	if got := f.row("done-cloud.txt"); got != doneRow {
		t.Errorf("済 row changed: %+v, want %+v", got, doneRow)
	}
	if got := f.row("failed-cloud.txt"); got != failedRow {
		t.Errorf("失敗 row changed: %+v, want %+v", got, failedRow)
	}
	if out := f.mustRun("status"); !strings.Contains(out, "3") {
		t.Errorf("status:\n%s", out)
	}
}

// TestFolderWithOnlyFailures: a folder whose only file fails has nothing
// to publish; it must not be carried as unpublished run after run.
func TestFolderWithOnlyFailures(t *testing.T) {
	f := newFixture(t)
	f.write("sub/bin.txt", "\x00\x01bin")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	out := f.mustRun("index")
	if strings.Contains(out, "まとめられませんでした") || strings.Contains(out, "集約ファイルに入れていない") {
		t.Errorf("second run:\n%s", out)
	}
	if journalHas(f, "未") {
		t.Errorf("journal carries an unpublished folder")
	}
}

// TestIndexOnly: `index --only NAME` updates that index alone and leaves
// the others as they are (a row's ［更新］, reference/gui.md §3.1).
func TestIndexOnly(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(filepath.Dir(f.root), "経理")
	os.MkdirAll(other, 0o755)
	f.write("a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("folder", "add", other)
	f.mustRun("index")

	f.write("new.txt", "新しいりんご\n")
	os.WriteFile(filepath.Join(other, "b.txt"), []byte("経理のみかん\n"), 0o644)
	out := f.mustRun("index", "--only", "経理")
	if !strings.Contains(out, "「営業」 "+f.root+" … 今回は取り込むインデックスに選ばれていないため取り込みません（インデックスはそのまま残します）") {
		t.Errorf("the other root is not logged as left alone:\n%s", out)
	}
	if _, ok := f.list().Lookup(`営業\new.txt`); ok {
		t.Errorf("a file of the other index got a row")
	}
	if r, ok := f.list().Lookup(`経理\b.txt`); !ok || r.State != ingestlist.Done {
		t.Errorf("経理\\b.txt = %+v, %v; want 済", r, ok)
	}
	if _, _, code := f.run("search", "りんご"); code != 0 {
		t.Errorf("the other index is no longer searchable")
	}

	// A name that is not registered is a usage error that names it once,
	// with the registered names; a run of 対象外 indexes only has nothing
	// to do and says how to include them (issue 17).
	f.mustRun("folder", "disable", "経理")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"index", "--only", "どこにもない"}, 2, "インデックス「どこにもない」はありません（登録されているインデックス: 営業、経理。一覧は fumibako folder list で表示します）。"},
		{[]string{"index", "--only", "営業", "--only", "どこにもない"}, 2, "インデックス「どこにもない」はありません"},
		{[]string{"index", "--only", "経理"}, 1, "インデックス「経理」は取り込み対象から外れています。fumibako folder enable 経理 で取り込み対象にしてから実行してください。"},
	} {
		out, errOut, code := f.run(tc.args...)
		if code != tc.code || strings.Count(out+errOut, tc.msg) != 1 || strings.Contains(out+errOut, "画面") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q once", tc.args, code, out, errOut, tc.code, tc.msg)
		}
	}
	out = f.mustRun("index", "--only", "営業")
	if r, ok := f.list().Lookup(`営業\new.txt`); !ok || r.State != ingestlist.Done {
		t.Errorf("営業\\new.txt = %+v, %v; want 済", r, ok)
	}
}
