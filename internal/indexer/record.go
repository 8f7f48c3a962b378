package indexer

import (
	"os"
	"slices"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// applied is what one worker result does to its file: the new row, the
// log lines under the file's head and how the file counts.
type applied struct {
	row     ingestlist.Row
	lines   []string
	detail  string // the English chain, for the log only (logDetail)
	level   Level
	counted bool // counts as done in the progress
	outcome Outcome
	swapped string // the per-file folder its TSVs were swapped into
	inline  bool   // its places went into the batch file (batchfile.go)
}

// record applies one worker result: swap the TSVs in, queue the row for
// the group commit, publish the folder when nothing in it is pending.
func (r *run) record(j *job, res worker.Result) {
	defer r.holdLog()()
	t := j.target
	if res.Outcome == worker.Finished && res.Response.Vanished {
		r.recordVanished(j)
		return
	}
	i := t.Row
	a := r.apply(j, res, r.rows[i])
	if a.row.State == ingestlist.Failed {
		a.outcome = OutcomeFailed
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, Failure{RelPath: t.File.RelPath, Msg: a.row.Error})
		r.progress.Failed++
	}
	if a.swapped == "" && (!a.inline || j.recycled) {
		// The swap renamed a swapped stage away, and an inline result
		// wrote none: only a stage left by a failure, or a recycled one
		// the worker did not use, is removed (no failing unlinkat per
		// file, issue 35).
		workspace.RemoveAll(j.stage)
	}
	r.ocrRecorded(int64(j.pos), t.File.RelPath, a.row.State, res.Response)
	r.rows[i] = a.row
	r.queueRow(a.row, a.swapped)
	if a.counted {
		r.progress.Done++
	}
	r.progress.Remaining = len(r.targets) - r.progress.Done
	r.progress.Current = t.File.RelPath
	// The head counts finished files, so the numbers run in order
	// whatever order the workers finish in.
	r.fileLogf(t.File.RelPath, Info, msgFileHead, r.finishedCount(), len(r.targets), t.File.RelPath)
	for _, l := range a.lines {
		r.fileLogf(t.File.RelPath, a.level, "%s", l)
	}
	r.logDetail(a.detail)
	reason := ""
	if a.outcome == OutcomeFailed || a.outcome == OutcomePostponed {
		reason = a.row.Error
	}
	r.finished(t.File.RelPath, a.outcome, reason)
	fk := workspace.FoldKey(content.FolderOf(t.File.RelPath))
	r.pendingIn[fk]--
	r.maybePublish(fk)
}

// recordVanished applies a file the worker found gone since the crawl
// (worker.Response.Vanished): it is dropped, not failed, and its text
// leaves the index with the folder's next publish. When its whole root is
// gone (a share that went away), the run stops handing files out
// (ErrRootLost) and the file stays as it was. Either way the row as it
// was is queued, so that the journal reads the job as finished (seed: a
// job handed to a worker appends its row); the drop takes it out of the
// list at the rewrite. The coordinator does not stat a file before
// handing it over: that stat, a percent of a small-file build's CPU, only
// moved the race with a vanishing file (issue 35).
func (r *run) recordVanished(j *job) {
	t := j.target
	rel := t.File.RelPath
	workspace.RemoveAll(j.stage)
	r.queueRow(r.rows[t.Row], "")
	if root := r.rootOf(rel); root != nil {
		if _, err := os.Stat(root.Path); err != nil {
			r.lostRoot = root.Path
			r.finished(rel, OutcomeStopped, "")
			return
		}
	}
	r.sum.Dropped++
	r.fileLogf(rel, Info, msgFileHead, r.finishedCount(), len(r.targets), rel)
	r.fileLogf(rel, Warn, msgVanished)
	r.finished(rel, OutcomeVanished, "")
	r.dropped[workspace.FoldKey(rel)] = true
	content.RemoveFileFolder(content.Dir(r.ws.ContentRoot(), rel))
	fk := workspace.FoldKey(content.FolderOf(rel))
	r.removals[fk] = append(r.removals[fk], content.BaseOf(rel))
	r.pendingIn[fk]--
	r.maybePublish(fk)
}

// apply turns a worker result into the file's new row (seed: 済, 失敗, or
// 未取り込み for a stop, a fault or a postponed file).
func (r *run) apply(j *job, res worker.Result, row ingestlist.Row) applied {
	a := applied{row: row, level: Info, counted: true, outcome: OutcomeDone}
	now := ingestlist.FormatFileTime(r.now())
	switch {
	case res.Outcome == worker.Stopped:
		// Abandoned by a stop: the current row is appended so the journal
		// reads the job as finished, and the file stays 未取り込み.
		a.counted, a.outcome = false, OutcomeStopped
	case res.Outcome == worker.Faulted:
		// The worker could not write the workspace: the run's fault, the
		// file stays 未取り込み with its current row (fault.go).
		r.noteFault(res.Fault)
		a.lines = append(a.lines, msgFaultKept)
		a.detail = res.Detail
		a.level, a.counted, a.outcome = Warn, false, OutcomeStopped
	case res.Outcome == worker.Finished && res.Response.OK:
		r.applyDone(j, res.Response, &a, now)
	case res.Outcome == worker.Finished && res.Response.Postponed:
		r.applyPostponed(j.target, res.Response, &a)
	case res.Outcome == worker.Finished && res.Response.Unavailable:
		r.applyUnavailable(res.Response, &a)
	default:
		msg := res.Msg
		a.detail = res.Detail
		if res.Outcome == worker.Finished {
			msg, a.detail = res.Response.Msg, res.Response.Detail
			a.lines = append(a.lines, res.Response.Log...)
		}
		a.row = failedRow(a.row, now, msg)
		a.lines = append(a.lines, sprintf(msgFileFailed, a.row.Error))
		a.level = Error
	}
	return a
}

// placesNotStored applies a file whose places could not be stored (the
// batch record or the swap of its per-file folder): a workspace fault
// keeps its row and stops the run; anything else fails the file.
func (r *run) placesNotStored(a *applied, err error, now string) {
	if r.noteFault(err) {
		a.lines = append(a.lines, msgFaultKept)
		a.level, a.counted = Warn, false
		return
	}
	a.row = failedRow(a.row, now, msgSwapFailed)
	a.lines = append(a.lines, sprintf(msgFileFailed, a.row.Error))
	a.detail = err.Error()
	a.level = Error
}

// applyDone swaps an extracted file's TSVs in and makes its row 済.
func (r *run) applyDone(j *job, resp worker.Response, a *applied, now string) {
	t := j.target
	if resp.Inline {
		// Rule 3: the record is in the batch file before the 済 row,
		// and durable before it is (the commit fsyncs the batch file
		// first, commit.go).
		// The frame is this answer's own buffer (worker.readMessages):
		// its places are cut from it, not copied.
		places, err := content.ParsePlacesOwned(resp.Places)
		if err == nil {
			rec := content.BatchRecord{Path: t.File.RelPath, ModTime: t.File.ModTime.UnixNano(), Size: t.File.Size, Places: places, Encoded: resp.Places}
			if resp.OCRWaiting == 0 && resp.OCRPages == 0 && len(resp.OCRKeys) == 0 {
				// The record stands for the 済 row (a kill before the
				// commit keeps the result, batchfile.go); a file with
				// OCR pages also needs its waiting list and key list,
				// which only the row's commit orders.
				rec.Version, rec.Ingested = extract.Version(t.File.RelPath), now
			}
			err = r.appendBatch(rec)
		}
		if err != nil {
			r.placesNotStored(a, err, now)
			return
		}
		a.inline = true
		r.markDone(t, resp, a, now)
		return
	}
	dst := content.Dir(r.ws.ContentRoot(), t.File.RelPath)
	// Rule 3: the TSVs are in place before the 済 row, and durable
	// before it is (the commit syncs dst's folder first, commit.go).
	// The worker wrote the crawled time and size beside them (search
	// tells a changed file).
	if err := content.SwapUnsynced(j.stage, dst); err != nil {
		r.placesNotStored(a, err, now)
		return
	}
	crashPoint("after-swap")
	a.swapped = dst
	r.markDone(t, resp, a, now)
}

// markDone makes an extracted file's row 済 once its places are stored.
func (r *run) markDone(t plan.Target, resp worker.Response, a *applied, now string) {
	a.lines = append(a.lines, resp.Log...)
	a.lines = append(a.lines, sprintf(msgTSVCount, resp.TSVCount))
	a.row = doneRow(a.row, resp.TSVCount, now, extract.Version(t.File.RelPath))
	r.sum.Succeeded++
	if resp.NoText {
		r.sum.NoText++
	}
}

// doneRow is row made 済 with its place count, 取り込み日時 and extract
// version: the one shape of a 済 row, whether a worker's result makes it
// (markDone) or a batch record the next start keeps (keepFinished).
func doneRow(row ingestlist.Row, tsvCount int, ingestedAt string, version int) ingestlist.Row {
	row.State, row.Error = ingestlist.Done, ""
	row.TSVCount, row.HasTSVCount = tsvCount, true
	row.IngestedAt, row.Version = ingestedAt, version
	return row
}

// applyPostponed keeps a postponed file 未取り込み with the reason (seed:
// Postponed; the previous row's TSV数, date and version stay).
func (r *run) applyPostponed(t plan.Target, resp worker.Response, a *applied) {
	if prev := t.Prev; prev != nil {
		a.row.TSVCount, a.row.HasTSVCount, a.row.IngestedAt, a.row.Version = prev.TSVCount, prev.HasTSVCount, prev.IngestedAt, prev.Version
	}
	a.row.State, a.row.Error = ingestlist.Pending, ingestlist.CleanError(resp.Msg)
	a.lines = append(a.lines, resp.Log...)
	a.lines = append(a.lines, sprintf(msgPostponed, a.row.Error))
	a.detail = resp.Detail
	a.level = Warn
	r.sum.Postponed++
	if resp.Msg == extract.MsgNoLibreOffice {
		r.sum.NoLibreOffice++
	}
	r.sum.Failures = append(r.sum.Failures, Failure{RelPath: t.File.RelPath, Msg: a.row.Error})
	r.progress.Failed++
	a.counted, a.outcome = false, OutcomePostponed
}

// applyUnavailable keeps a file whose reader could not prepare its engine
// 未取り込み with its current row (issue 36): the engine's failure is the
// run's message, shown once, never the file's; any later run reads the file.
func (r *run) applyUnavailable(resp worker.Response, a *applied) {
	if !slices.Contains(r.unavailable, resp.Msg) {
		r.unavailable = append(r.unavailable, resp.Msg)
		r.logf(Warn, "%s", resp.Msg)
	}
	a.lines = append(a.lines, msgUnavailableKept)
	a.detail = resp.Detail
	a.level, a.counted, a.outcome = Warn, false, OutcomeStopped
	r.sum.Unavailable++
}
