package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/workspace"
)

// A poisoned folder never blocks the workspace (issue 36). A folder whose
// publish kills the process (a file that needs more memory than the
// machine has, a bug) was published again at every start, and killed
// every run there, so nothing after it was ever searchable. As the seed
// fails a job interrupted twice (InterruptLimit), the coordinator records
// each publish before it begins (journal 試, with the number of publishes
// of the folder in a row that the process did not come back from;
// beginPublish; every one that comes back says so: cameBack) and sets a
// folder aside:
//
//   - at the start, when the previous runs died that many times while
//     publishing it (journal.Recovery.Publishing reaches publishLimit);
//   - at once, when its publish fails with an error that is not a
//     workspace fault (an index this build cannot write, say).
//
// Setting aside (setAside) gives up that folder's waiting work, never
// anything else: the files whose per-file folders wait in it become 失敗
// with a message saying why (their rows are appended before their
// per-file folders go, so a kill in between leaves them failed, never 済
// without text), its removals not yet published are dropped, and 出 is
// recorded for it; its body index stays as it was, searchable. Like any
// failure, a file is taken again when it changes or failures are retried.
const publishLimit = journal.InterruptLimit

// Texts of a folder set aside (the エラー of its files, and the log).
const (
	msgFolderKilled   = "このファイルのフォルダのインデックスをまとめる途中で %d 回続けて強制終了されたため、取り込みを中止しました（同じフォルダのファイルが原因の可能性があります）"
	msgFolderFailed   = "このファイルのフォルダのインデックスをまとめられなかったため、取り込みを中止しました（詳しい内容は indexing_log.txt にあります）"
	logFolderKilled   = "    インデックスをまとめる途中で %d 回続けて強制終了したフォルダは、まとめずに取り込み済みの %d 件を失敗にしました: %s"
	logFolderFailed   = "    インデックスをまとめられなかったフォルダは、まとめずに取り込み済みの %d 件を失敗にしました: %s"
	logFolderFileFail = "    失敗にしました: %s"
)

// beginPublish records that folder's publish begins (試, with the
// publishes of it in a row the process did not come back from, this one
// included should it not): in the run's journal, or, at the start, in the
// previous run's, which is the one a kill leaves for the next start
// (startJournal).
func (r *run) beginPublish(folder string) {
	r.writeTries(folder, r.tries[workspace.FoldKey(folder)]+1)
}

// cameBack records that folder's publish came back, whatever it gave
// (試 with the count before it): a publish that fails on a workspace
// fault, however often the run tries again, and a kill between a publish
// and its 出 (written by the next group commit) are no deaths in it.
func (r *run) cameBack(folder string) {
	r.writeTries(folder, r.tries[workspace.FoldKey(folder)])
}

func (r *run) writeTries(folder string, n int) {
	w := r.journal
	if w == nil {
		w = r.startJournal
	}
	if w == nil {
		return // no journal to read it back from (one of another version)
	}
	if err := w.Publishing(folder, n); err != nil {
		r.noteJournalErr(err)
	}
}

// endPublish records that folder's publish ended: its count starts over,
// and at the start its 出 goes into the previous run's journal (during the
// run the group commit writes 出).
func (r *run) endPublish(folder string) {
	delete(r.tries, workspace.FoldKey(folder))
	if r.journal == nil && r.startJournal != nil {
		if err := r.startJournal.Published(folder); err != nil {
			r.noteJournalErr(err)
		}
	}
}

// openStartJournal opens the previous run's journal for the start's
// publishes (nil when it cannot be read back: it is of another version, or
// missing).
func (r *run) openStartJournal(readable bool) {
	if !readable {
		return
	}
	w, err := journal.AppendTo(r.ws.Journal())
	if err != nil {
		r.noteJournalErr(err)
		return
	}
	r.startJournal = w
}

// closeStartJournal closes it once the start's publishes are done, their
// 出 records fsynced (the batch files those publishes read are deleted
// next, batchfile.go).
func (r *run) closeStartJournal() {
	if r.startJournal != nil {
		if err := r.startJournal.Sync(); err != nil {
			r.noteJournalErr(err)
		}
		if err := r.startJournal.Close(); err != nil {
			r.noteJournalErr(err)
		}
		r.startJournal = nil
	}
}

// setAsideKilled sets aside a folder the previous runs died in n times.
func (r *run) setAsideKilled(folder string, n int) {
	names := r.setAside(folder, fmt.Sprintf(msgFolderKilled, n))
	r.logf(Warn, logFolderKilled, n, len(names), folder)
	r.logFailed(folder, names)
}

// setAsideFailed sets aside a folder whose publish failed with err.
func (r *run) setAsideFailed(folder string, err error) {
	names := r.setAside(folder, msgFolderFailed)
	r.logf(Warn, logFolderFailed, len(names), folder)
	r.logDetail(err.Error()) // the English cause, in indexing_log.txt only
	r.logFailed(folder, names)
}

func (r *run) logFailed(folder string, names []string) {
	for _, n := range names {
		r.logf(Warn, logFolderFileFail, folder+`\`+n)
	}
}

// setAside fails the files whose per-file folders or batch records wait
// in folder with msg, removes those per-file folders, drops those records
// (a 'D' record, batchfile.go, durable with the rows) and the folder's
// pending removals, and closes the folder for this run (出). It returns
// the files' names.
func (r *run) setAside(folder, msg string) []string {
	k := workspace.FoldKey(folder)
	dir := content.Dir(r.ws.ContentRoot(), folder)
	folders := fileFolders(dir)
	names := append([]string(nil), folders...)
	seen := map[string]bool{}
	for _, n := range names {
		seen[workspace.FoldKey(n)] = true
	}
	for _, n := range r.batchNames(folder) {
		if !seen[workspace.FoldKey(n)] {
			names = append(names, n)
		}
	}
	r.dropBatch(folder)
	r.forgetBatch(folder)
	r.failRows(folder, names, msg)
	for _, n := range folders {
		if err := content.RemoveFileFolder(filepath.Join(dir, n)); err != nil && !r.noteFault(err) {
			r.logf(Warn, msgPublishFail, err)
		}
	}
	// The publishes that died here left a temporary manifest or parts
	// beside the folder's index, which no publish will tidy now.
	bodyindex.RemoveLeftovers(dir)
	delete(r.removals, k)
	delete(r.toPublish, k)
	delete(r.tries, k)
	r.dropPendingRemove(folder)
	if r.journal != nil {
		r.queuePublished(folder)
		r.commit()
	} else {
		r.endPublish(folder)
	}
	return names
}

// fileFolders lists the names of the per-file folders waiting in dir.
func fileFolders(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && content.IsFileFolder(filepath.Join(dir, e.Name())) {
			out = append(out, e.Name())
		}
	}
	return out
}

// failRows makes the rows of the files names of folder 失敗 with msg and
// appends them to the ingest list (durable before the per-file folders
// go): during the run, in the run's rows (the group commit appends them);
// at the start, in the previous list's rows, which the plan reads, and
// appended to the list at once.
func (r *run) failRows(folder string, names []string, msg string) {
	if len(names) == 0 {
		return
	}
	now := ingestlist.FormatFileTime(r.now())
	want := map[string]bool{}
	for _, n := range names {
		want[workspace.FoldKey(folder+`\`+n)] = true
	}
	if r.journal != nil {
		ran := map[string]bool{} // files ingested by this run
		for _, t := range r.targets {
			if k := workspace.FoldKey(t.File.RelPath); want[k] {
				ran[k] = true
			}
		}
		for i, row := range r.rows {
			if !want[row.Key()] {
				continue
			}
			if ran[row.Key()] && row.State == ingestlist.Done {
				r.sum.Succeeded--
			}
			r.rows[i] = failedRow(row, now, msg)
			r.queueRow(r.rows[i], "")
			r.sum.Failed++
			r.sum.Failures = append(r.sum.Failures, Failure{RelPath: row.RelPath, Msg: r.rows[i].Error})
			r.progress.Failed++
		}
		r.commit()
		return
	}
	var failed []ingestlist.Row
	for i, row := range r.prev.Rows {
		if want[row.Key()] {
			r.prev.Rows[i] = failedRow(row, now, msg)
			failed = append(failed, r.prev.Rows[i])
			r.sum.Failed++
			r.sum.Failures = append(r.sum.Failures, Failure{RelPath: row.RelPath, Msg: r.prev.Rows[i].Error})
		}
	}
	r.appendRows(failed)
}

// appendRows appends rows to the ingest list at the start (the run's
// appender opens after the list's rewrite).
func (r *run) appendRows(rows []ingestlist.Row) {
	if len(rows) == 0 {
		return
	}
	app, err := ingestlist.OpenAppender(r.ws.IngestList())
	if errors.Is(err, os.ErrNotExist) {
		return // no list: the rows are written with it
	}
	if err == nil {
		for _, row := range rows {
			if err = app.AppendUnsynced(row); err != nil {
				break
			}
		}
		if err == nil {
			err = app.Sync()
		}
		app.Close()
	}
	if err != nil && !r.noteFault(err) {
		r.logf(Error, "取り込み一覧に書き込めません: %v", err)
	}
}
