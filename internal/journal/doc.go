// Package journal owns the ingest journal work/store/journal/ingest.tsv: its
// writer (one line per record, written at once; fsynced at once or by the
// coordinator's group commit) and its recovery reader (which jobs
// to redo with which counts, which folders to publish at the start). It also
// reads the in-flight file of earlier versions, work/ingesting.txt, and
// reads and writes work/store/pending_remove.tsv.
//
// It does not own the ingest list (package ingestlist): recovery takes the
// list's data-line keys as plain strings. It does not decide targets or
// publish folders (packages plan and indexer), and it never prints; the log
// texts it declares are returned as strings.
//
// # The journal (seed ingest-list.ja.md, ジャーナルの形)
//
// UTF-8 with a BOM, TAB-separated, CRLF line ends, one record per line; the
// first column is the record kind, a single kanji. Only the coordinator
// writes it, appending one line at a time in one write each, so every line
// it appended survives a kill of the process; 書 and 終 are fsynced at once,
// 始 and 出 by Writer.Sync (the group commit, issue 21). A run begins with a new journal written to a
// temporary file and renamed into place, then appends to it:
//
//	<BOM>版<TAB>2<CR><LF>
//	回<TAB>2026/09/19 10:00:00<TAB>4<CR><LF>
//	持<TAB>営業\2024\見積\B社.xlsx<TAB>1<CR><LF>
//	未<TAB>営業\2024\請求<CR><LF>
//	始<TAB>営業\2024\見積\A社.xlsx<TAB>1<CR><LF>
//	始<TAB>営業\2024\見積\B社.xlsx<TAB>2<CR><LF>
//	出<TAB>営業\2024\見積<CR><LF>
//	書<CR><LF>
//	終<CR><LF>
//
// Kinds and columns:
//
//	版  format version ("2", FormatVersion)   the first line; another value: discard unread
//	回  date time, ingest-list data rows      start of a run; rows after the list's rewrite
//	持  relative path, count                  carried job not handed out yet
//	始  relative path, count                  job handed to a worker; count includes this start
//	出  folder                                folder published to the body index
//	未  folder                                carried unpublished folder, right after 回
//	書  –                                     before the ingest list is rewritten at the end
//	終  –                                     after that rewrite finished (end of the run)
//	試  folder, count                         a folder's publish begins, or came back (fumibako's own, below)
//
// 試 is fumibako's (issue 36); the seed's readers skip it as an unknown
// kind. It is written, not fsynced (it guards against the death of the
// process, which a written line survives), before each publish of a
// folder, with the number of publishes of it in a row that the process
// did not come back from, this one included should it not; a publish
// that comes back without a 出 (a workspace fault) is followed by one with
// the number before it (0 when there was none), so that it does not
// count. A start publishes the folders the previous run left with that
// run's journal still in place, so it appends its 試 and 出 records to
// that journal (AppendTo) before Create replaces it.
//
// The date time is `yyyy/MM/dd HH:mm:ss` in local time; it is informational
// and not checked. A relative path is the ingest list's key,
// `<index name>\<path under the crawl root>`; a folder is relative to
// work/store/content (`営業\2024\見積`; an index's top folder is just
// `営業`). Both use `\` on every OS. A count is ASCII digits (at most nine);
// 持 and 始 counts are at least 1.
//
// Reading: a BOM at the start is dropped, lines may end in CRLF or LF, empty
// lines are ignored. A last line without a newline was cut by a kill and is
// dropped. Lines of unknown kinds are skipped, and so are extra columns.
// Lines with missing columns, a count that is not an integer (or a 持/始
// count of 0), a path or folder that fails the name rules of DESIGN.md
// "Names" (each `\`-separated segment passes workspace.TestStoredIndexName;
// a relative path has at least two segments), invalid UTF-8, over 1 MiB, or
// a 版 after the first line are skipped and counted (Log.Skipped). When the
// first line is not 版 2 the journal is unreadable (Log.Readable). The
// writer refuses records the reader would skip.
//
// # Recovery (seed, 次回の実行時: convertFromIngestJournal)
//
// Log.Recover compares the journal with the current ingest list:
//
//   - Unpublished folders: a folder with a 始 (the folder of its relative
//     path: everything before the last `\`) or a 未, and no later 出, even
//     when the journal has 終. They are published at the start; those that
//     cannot be are carried as 未 in the next journal.
//   - Jobs to redo: a 始 with no ingest-list row for its path among the rows
//     the run appended (data lines from the 回 count on). Postponed and
//     stopped jobs get a row too, so they are not taken for interrupted.
//   - A 持 without a 始 is carried with its count.
//   - When a path has several 始, the last one counts.
//   - Without 終 after 書 (killed while rewriting the ingest list), or when
//     the 回 count is larger than the list's data rows (the list was changed
//     from outside), rows are not looked at: every 始 job is redone.
//   - With 終 there is nothing to redo.
//   - A missing journal, or one of another version or none: not readable;
//     the caller publishes every per-file folder it finds.
//   - Publishing: the folders whose last 試 has a count above 0 and no
//     later 出, with that count (the whole file): the process died while
//     publishing them that many times in a row. The caller sets a folder
//     aside at InterruptLimit, as it fails a job (package indexer).
//
// Decisions where the seed is silent: a journal has one 回; should it hold
// several, jobs come only from the records after the last one (an earlier
// run's jobs were carried into it as 持), while unpublished folders come
// from the whole file, since publishing twice gives the same bytes. With no
// valid 回, rows cannot be matched and every 始 job is redone. Of 書 and 終
// the later one decides. 終 also drops 持 jobs: a run that ended cleanly
// increments nothing, as tebunko deleted ingesting.txt at every finish.
//
// The caller then moves each job to redo that is still a target to the end
// of the targets (LogMovedLast), fails those whose count reached
// InterruptLimit (MsgInterrupted, LogSkippedInterrupted), ignores the others,
// and replaces the journal with Create (版, 回, 持, 未). A job's next 始
// carries its count + 1.
//
// # Legacy ingesting.txt (reference/indexing.md §10)
//
// Earlier versions kept work/ingesting.txt, rewritten whole on every change:
// one line per file in flight or carried, `<count><TAB><relative path>`:
//
//	1<TAB>営業\2024\見積\A社.xlsx<CR><LF>
//	2<TAB>2019年度\重い.xlsx<CR><LF>
//
// A line counts only with exactly two fields, a count ≥ 1 and a relative
// path passing the name rules; anything else is ignored. UTF-8 with or
// without a BOM and UTF-16 with a BOM are read, CRLF or LF. It is read once,
// added to the jobs to redo, and removed after the new journal is written.
//
// # pending_remove.tsv (DESIGN.md "Formats"; seed, 無くなった元のファイルの外し直し)
//
// Removals from the body index not yet published. UTF-8 with a BOM, TAB,
// CRLF, one line per source file, `<relative path><TAB><folder relative to
// store/content>`:
//
//	<BOM>営業\2024\見積\旧.xlsx<TAB>営業\2024\見積<CR><LF>
//	営業\古い.docx<TAB>営業<CR><LF>
//
// It is rewritten whole (temporary file and rename) before the ingest-list
// rows are dropped; after a folder is published its lines are removed, and
// with none left the file is deleted. Reading drops a BOM, accepts CRLF or
// LF, drops a last line without a newline, skips lines with fewer than two
// columns or a path failing the name rules, ignores extra columns and keeps
// repeated lines once. At the start the remaining removals are queued for
// publishing again.
package journal
