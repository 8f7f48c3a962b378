// Package indexer is the coordinator (司令): the indexing run that ties
// crawl, plan, worker, content and the body index together. One goroutine
// (Run's) writes every piece of workspace state: the ingest list, the
// journal, pending_remove.tsv, the log, each root's source_folder.txt
// (package source) and the body index, except that the
// publish of a folder nothing is pending in runs on a publishing goroutine
// of its own (publisher.go), whose result Run's goroutine completes.
// Workers only return results.
//
// Write-ordering rules that crash safety depends on (seed
// ingest-list.ja.md; each has a test that kills the process between its two
// steps):
//
//  1. The ingest list MUST be rewritten with every target as 未取り込み
//     before the new journal's 回 records its row count, and the journal
//     MUST be replaced before the first 始.
//  2. 始 MUST be appended (written; fsynced by the next group commit) before
//     the file is handed to a worker; a kill after 始 and before the row is
//     the only way a job counts as interrupted, except that a job whose
//     batch record stands for its row is taken as finished by the next
//     start (keepFinished, batchfile.go).
//  3. A file's places MUST be stored, and durable, before its 済 row is
//     appended: a small file's as a record of the run's batch file
//     (batchfile.go), fsynced; a large file's as place TSVs swapped into
//     store/content, the folder they went into fsynced. So a 済 row always
//     has its batch record, its per-file folder or its body index; a
//     folder set aside (rule 8) drops its records with a 'D' record made
//     durable with its files' 失敗 rows.
//  4. A folder's body index MUST be published (written and renamed) before
//     出 is appended, and 出 MUST follow the rows of the folder's files;
//     without 出 the next start publishes the folder again, which is
//     idempotent.
//
// Rules 2–4 are kept by the group commit (commit.go): rows and 出 records
// wait for the commit the coordinator makes whenever no result is waiting
// and the last commit is commitEvery (50 ms) old, which fsyncs the batch file and the folders, then writes and fsyncs the
// rows, then writes 出 and fsyncs the journal. The batch files of earlier
// runs are read by the start, which publishes the folders the journal
// shows unpublished with their records and deletes the files before the
// new journal replaces the old one; a run deletes its own at its end.
//  5. pending_remove.tsv MUST be written before the ingest-list rows of
//     vanished files are dropped, and a folder's removals are cleared only
//     after that folder was published.
//  6. 書 MUST precede the final rewrite of the ingest list and 終 follow it;
//     a rewrite cut in the middle makes the next start redo every 始.
//     A rewrite that would give the list's own bytes is skipped, and a run
//     with nothing to do (idle, decide.go: an unchanged rerun) keeps the
//     journal a run with nothing to do left and writes no record at all:
//     the files already are what the rewrites would leave.
//  7. Every index MUST be marked as changing (summary.MarkChanging,
//     durable) before the run changes any of its folders (the run marks
//     them all before its first change: a run with nothing to do marks
//     none), and only
//     WriteSummary, once the summary is committed, clears the mark: a
//     search believes a summary without checking folders only while the
//     mark is absent, so a kill in between leaves searches checking
//     folder times until the next run.
//  8. A folder's publish MUST be recorded (journal 試, written) before it
//     begins, in the previous run's journal when the start publishes
//     (poison.go); a folder the journal shows the process died in
//     publishLimit (2) times in a row is not published again but set
//     aside, and its files' 失敗 rows MUST be appended before their
//     per-file folders are removed. A publish that fails (not a
//     workspace fault) sets the folder aside at once. So no folder
//     blocks the workspace (issue 36).
//  9. An OCR page a worker hands over (worker.Interim) MUST be in the page
//     cache (written atomically) before its file's result is applied, so
//     a kill or a deadline loses at most the page in flight; the waiting
//     list (store/ocr_waiting.tsv) MUST be rewritten before the group
//     commit that makes a waiting file's 済 row durable, so no 済 file that
//     waits for OCR is missing from it (issue 29, ocr.go).
//
// Dispatch keeps up to worker.Depth files in each worker's pipe (each with
// its 始), so workers do not idle while results are recorded, and hands
// them out in groups: a slot is filled up (within pipeBytes of sources
// beyond its first file), then refilled once half of its files are
// answered, and the worker answers the files of a group in one write
// (worker.Depth). A kill of the run leaves at most worker.Depth 始
// records without a row per worker; each of those files then runs alone
// once. A file that the journal says was interrupted before runs alone on
// an idle worker: were it to take the run down again, no queued neighbour
// is counted as interrupted with it. A file is handed over as the crawl
// found it, not checked again: one that went away since is answered as
// gone (worker.Response.Vanished) and dropped from the list, not failed;
// when its whole root went away (a share disconnected), dispatch stops and
// the run ends with ErrRootLost, every row kept (recordVanished).
//
// Stop (Ctrl-C, SIGTERM, the web UI's stop button): dispatch stops at once;
// files in flight get Options.Grace to finish, then their workers are
// killed and their current row is appended, so the journal reads them as
// finished, not interrupted. A second stop request skips the grace.
//
// A run over some paths only (Options.Paths: package watch's runs over
// what file-system events named) is the same run: the same records in the
// same order, the crawl and the plan limited to those paths
// (crawl.Options.Only, plan.Input.Scope), every other row carried as it
// was. Options.Lock lets the watcher hold the workspace lock across runs.
//
// A workspace fault (workspace.WriteFault: disk full, read-only, I/O error,
// no permission, a file held open) anywhere in the run is the run's, not
// the file's (fault.go): dispatch stops, files in flight are abandoned as
// on a stop and stay 未取り込み, what can be published is published, the
// ingest list keeps its appended rows (no rewrite), 終 is appended, and Run
// returns the *workspace.FaultError (exit 1).
package indexer
