package indexer

import (
	"path/filepath"
	"sort"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Group commit (issue 21). Each finished file used to cost an fsync of the
// folder its TSVs were swapped into, one of its ingest-list row and one of
// its 始; for small files these fsyncs were most of the coordinator's time.
// The seed asks only that each line is appended and flushed, and its
// recovery redoes a job whose row is missing, so the coordinator gathers
// the durable steps of the files that finish close together and makes them
// durable in one commit, in the order the crash rules need:
//
//  1. fsync the run's batch file (batchfile.go) once, and the folders
//     that per-file folders were swapped into (content.SwapUnsynced):
//     the records and TSVs are durable before any row that claims them
//     (rule 3);
//  2. write the queued rows and fsync the ingest list: a 済 row never
//     becomes durable before its TSVs;
//  3. write the queued 出 records and fsync the journal (with the 始
//     records written at each hand-off): a 出 never becomes durable before
//     its folder's body index (fsynced by the publish itself, rule 4) nor
//     before the rows of the files it holds, so a power loss cannot make a
//     finished file look interrupted.
//
// 始 lines are written at each hand-off (rule 2 against a kill of the
// process; a power loss loses at most the last ones, whose jobs then look
// not started and are taken again without a count). A kill loses the
// queued rows and 出 records: their jobs are redone and their folders
// published again, which the seed's recovery does anyway and which is
// idempotent. The coordinator commits whenever no result is waiting
// (commit on idle) and the last commit is commitEvery old, so a file's row
// is written at most that long after the coordinator has nothing else to
// do, and a batch forms while results arrive faster
// than they are recorded or within commitEvery of the last commit (issue
// 35: small files finish every millisecond or so, and three fsyncs per
// file were most of the batch path's cost): a kill loses at most the rows
// of the results recorded since the last commit. At most maxBatch steps
// wait; a commit also precedes 書, 終 and the end of the run. The result
// of a file the journal shows interrupted before is committed at once:
// its row lost to a kill would count it a second time, and the seed fails
// a file at two (journal.InterruptLimit), so only a kill while the file
// is really being extracted may bring it there.
type batch struct {
	rows      []ingestlist.Row
	dirs      map[string]bool // folders holding per-file folders swapped in
	published []string        // folders published, for 出
}

// maxBatch is the most steps a commit waits for.
const maxBatch = 256

// commitEvery is the least time between two commits while results come
// in (issue 35): each commit fsyncs the batch file, the ingest list and
// the journal, and small files finish far more often than that; a kill
// loses at most the rows of this long, which recovery redoes. A variable
// for tests.
var commitEvery = 50 * time.Millisecond

func (b *batch) size() int { return len(b.rows) + len(b.published) }

// queueRow queues a file's result row; swapped, when set, is the per-file
// folder its TSVs were swapped into.
func (r *run) queueRow(row ingestlist.Row, swapped string) {
	if swapped != "" {
		if r.batch.dirs == nil {
			r.batch.dirs = map[string]bool{}
		}
		r.batch.dirs[filepath.Dir(swapped)] = true
	}
	r.batch.rows = append(r.batch.rows, row)
}

// queuePublished queues a folder's 出.
func (r *run) queuePublished(folder string) {
	r.batch.published = append(r.batch.published, folder)
}

// commit makes the queued steps durable in the order above. A workspace
// fault stops the run as any other write would (fault.go); the steps after
// it are still tried, as the appends they replace were.
func (r *run) commit() {
	b := &r.batch
	if b.size() == 0 && len(b.dirs) == 0 && !r.batchDirty() && (r.journal == nil || !r.journal.Dirty()) {
		return
	}
	// Closed batch files whose folders are all published go once this
	// commit has made their 出 durable.
	done := r.publishedBatches()
	// The batch file's records before any row that claims them (rule 3).
	if err := r.syncBatch(); err != nil && !r.noteFault(err) {
		r.logf(Error, "    %s", msgSwapFailed)
		r.logDetail(err.Error())
	}
	crashPoint("after-batch-sync")
	dirs := make([]string, 0, len(b.dirs))
	for d := range b.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := workspace.SyncDir(d); err != nil && !r.noteFault(err) {
			r.logf(Error, "    %s", msgSwapFailed)
			r.logDetail(err.Error())
		}
	}
	crashPoint("in-commit")
	// The waiting list before the rows: a 済 file that waits for OCR is
	// listed whenever its row is durable (ocr.go).
	r.writeOCRWaiting(nil)
	crashPoint("after-ocr-waiting")
	if len(b.rows) > 0 && r.appender != nil {
		bad, err := r.appender.AppendAllUnsynced(b.rows)
		for _, err := range bad {
			r.logf(Error, "取り込み一覧に書き込めません: %v", err)
		}
		if err != nil && !r.noteFault(err) {
			r.logf(Error, "取り込み一覧に書き込めません: %v", err)
		}
		if err := r.appender.Sync(); err != nil && !r.noteFault(err) {
			r.logf(Error, "取り込み一覧に書き込めません: %v", err)
		}
	}
	if r.journal != nil {
		for _, folder := range b.published {
			if err := r.journal.Published(folder); err != nil {
				r.noteJournalErr(err)
			}
		}
		if err := r.journal.Sync(); err != nil {
			r.noteJournalErr(err)
		}
	}
	b.rows, b.published = b.rows[:0], b.published[:0]
	clear(b.dirs)
	r.deleteBatches(done)
	r.lastCommit = time.Now()
}

// noteJournalErr keeps the first journal error that is not a workspace
// fault (the run ends with it).
func (r *run) noteJournalErr(err error) {
	if !r.noteFault(err) && r.journalErr == nil {
		r.journalErr = err
		r.logf(Error, "ジャーナルに書き込めません: %v", err)
	}
}
