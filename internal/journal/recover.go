package journal

import "github.com/fumibako/fumibako/internal/workspace"

// Recovery is what the next start learns from the previous run's journal
// (seed: convertFromIngestJournal).
type Recovery struct {
	// Readable is false when the journal is missing, has another 版 or none.
	// Unpublished and Redo are then empty, and the caller publishes every
	// per-file folder it finds instead (seed: findIndexFoldersWithBooks).
	Readable bool
	// Unpublished are the folders (relative to store/content) to publish at
	// the start, in the order they first appear in the journal, deduplicated
	// case-insensitively (the first spelling is kept).
	Unpublished []string
	// Redo are the jobs to redo with their counts, in the order their paths
	// first appear (持 or 始), deduplicated case-insensitively; RelPath is
	// spelled as in the deciding record. Count is that of the last 始 for
	// the path, or of its 持 when it has no 始.
	Redo []Job
	// Publishing are the folders whose publish the process did not come
	// back from (the last 試 has a count above 0 and no 出 follows it: the
	// process died in the publish, or before its 出 was written), keyed by
	// workspace.FoldKey, with that count: how many such publishes in a
	// row.
	Publishing map[string]int
}

// Recover applies the seed's recovery rules (ingest-list.ja.md, ジャーナルの
// 形, 「次回の実行時」) to the journal.
//
// listDataLineKeys are workspace.FoldKey of the relative path of every
// physical data line of the current ingest list, in file order (index i is
// data line i; a malformed line is passed as ""): the rows a run appended
// are the ones at index >= the 回 count.
//
// Unpublished folders: a folder with a 始 (the folder of its relative path)
// or a 未, and no 出 after it, even when the journal has 終. The whole file
// is looked at.
//
// Jobs to redo, from the records after the last 回 (the journal holds one 回,
// written at the start of a run; records before a later 回 belong to a run
// whose jobs that 回's run already carried as 持, so they are not counted
// again):
//   - a 始 with no ingest-list row for its path among the data lines from
//     the 回 count on;
//   - a 持 with no 始 for its path, with its count as is;
//   - when a path has several 始, the last one counts;
//   - when 書 has no 終 after it (the rewrite of the ingest list was cut), or
//     the 回 count is larger than the ingest list's data lines (the list
//     was changed from outside), or there is no 回 at all, every 始 job is
//     redone without looking at rows;
//   - when 終 comes last of 書 and 終, there is nothing to redo (持 jobs
//     included: a run that ended cleanly increments nothing).
func (l *Log) Recover(listDataLineKeys []string) Recovery {
	if !l.Readable() {
		return Recovery{}
	}
	rec := Recovery{Readable: true, Unpublished: unpublished(l.Records), Publishing: publishing(l.Records)}

	// Jobs look only at the records after the last 回.
	from, rows := 0, -1
	for i, r := range l.Records {
		if r.Kind == KindRun {
			from, rows = i+1, r.count()
		}
	}
	records := l.Records[from:]

	ended, rewriting := false, false
	for _, r := range records {
		switch r.Kind {
		case KindEnded:
			ended, rewriting = true, false
		case KindRewriting:
			ended, rewriting = false, true
		}
	}
	if ended {
		return rec
	}
	lookAtRows := !rewriting && rows >= 0 && rows <= len(listDataLineKeys)
	var appended map[string]bool
	if lookAtRows {
		appended = make(map[string]bool, len(listDataLineKeys)-rows)
		for _, k := range listDataLineKeys[rows:] {
			if k != "" {
				appended[k] = true
			}
		}
	}

	type job struct {
		Job
		started bool
	}
	var order []string
	jobs := map[string]*job{}
	for _, r := range records {
		if r.Kind != KindStart && r.Kind != KindCarried {
			continue
		}
		key := workspace.FoldKey(r.Fields[0])
		j := jobs[key]
		if j == nil {
			j = &job{}
			jobs[key] = j
			order = append(order, key)
		}
		if r.Kind == KindStart || !j.started {
			j.Job = Job{RelPath: r.Fields[0], Count: r.count()}
			j.started = r.Kind == KindStart
		}
	}
	for _, key := range order {
		j := jobs[key]
		if j.started && lookAtRows && appended[key] {
			continue // finished: its row was appended in this run
		}
		rec.Redo = append(rec.Redo, j.Job)
	}
	return rec
}

// unpublished returns the folders with a 始 or 未 and no later 出, in
// first-seen order, deduplicated case-insensitively.
func unpublished(records []Record) []string {
	var order []string
	first := map[string]string{} // key → first spelling
	pending := map[string]bool{}
	for _, r := range records {
		var folder string
		switch r.Kind {
		case KindStart:
			folder = FolderOf(r.Fields[0])
		case KindUnpublished, KindPublished:
			folder = r.Fields[0]
		default:
			continue
		}
		key := workspace.FoldKey(folder)
		if r.Kind == KindPublished {
			pending[key] = false
			continue
		}
		if _, seen := first[key]; !seen {
			first[key] = folder
			order = append(order, key)
		}
		pending[key] = true
	}
	var out []string
	for _, key := range order {
		if pending[key] {
			out = append(out, first[key])
		}
	}
	return out
}

// publishing returns the folders whose last 試 has a count above 0 and
// no later 出, with that count (the whole file is looked at: a start
// appends its 試 and 出 records to the previous run's journal, AppendTo).
func publishing(records []Record) map[string]int {
	out := map[string]int{}
	for _, r := range records {
		switch {
		case r.Kind == KindPublishing && r.count() > 0:
			out[workspace.FoldKey(r.Fields[0])] = r.count()
		case r.Kind == KindPublishing, r.Kind == KindPublished:
			delete(out, workspace.FoldKey(r.Fields[0]))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Idle reports whether the journal is that of a run that had nothing to
// do: 版, a 回 counting listRows data lines, 書 and 終, and nothing else (no
// line skipped, none torn). A new run that has nothing to do would replace
// it with the same records, 回's date aside, which recovery never reads:
// nothing to redo, no folder to publish, whatever the list holds. Such a
// run may keep it instead of replacing it (an unchanged rerun writes
// nothing, issue 21).
func (l *Log) Idle(listRows int) bool {
	if !l.Readable() || l.Torn || l.Skipped > 0 || len(l.Records) != 3 {
		return false
	}
	r := l.Records
	return r[0].Kind == KindRun && r[0].count() == listRows && r[1].Kind == KindRewriting && r[2].Kind == KindEnded
}

// RunRows returns the data-row count of the last 回 record, -1 when there
// is none: Recover reads the keys of the list's data lines from there on
// only, so a caller need fold no key before it.
func (l *Log) RunRows() int {
	rows := -1
	for _, r := range l.Records {
		if r.Kind == KindRun {
			rows = r.count()
		}
	}
	return rows
}
