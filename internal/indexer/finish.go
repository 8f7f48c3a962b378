package indexer

import (
	"slices"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

// finish publishes every pending folder, rewrites the ingest list one row
// per file between 書 and 終 (rule 6) and closes the journal
// (reference/indexing.md §5.6). It runs after a stop too.
//
// After a workspace fault it publishes what it can and skips the rewrite:
// the list keeps the rows appended during the run (the later row wins when
// it is read), which is all the next run needs, and a rewrite would need
// the space or the write access that is missing. 終 is still appended: the
// list was not being rewritten, so the jobs whose rows are missing were not
// interrupted by a kill and must not count as such (seed: 終 があれば、
// やり直す仕事は無い); they are 未取り込み in the list and are taken again.
// The same holds when the rewrite itself fails: the atomic write leaves the
// list as it was (or whole and new), never cut.
func (r *run) finish() error {
	r.phase(PhaseFinish)
	r.publishPending()
	r.stopPublisher()
	r.commit()
	r.removeBatch()
	crashPoint("before-summary")
	r.writeSourceFiles()
	r.writeSummaries()
	if r.appender != nil {
		r.appender.Close()
	}
	if r.journal == nil {
		return r.faultErr()
	}
	defer r.journal.Close()
	if r.fault != nil {
		r.journal.Ended()
		return r.fault
	}
	if err := r.journal.Rewriting(); err != nil {
		return r.check(err)
	}
	crashPoint("after-rewriting")
	// Filtered in place: the rows are not read after the rewrite, and a
	// copy would be one more row per file (issue 21).
	rows := r.rows
	if len(r.dropped) > 0 {
		rows = slices.DeleteFunc(r.rows, func(row ingestlist.Row) bool { return r.dropped[workspace.FoldKey(row.RelPath)] })
	}
	if _, err := ingestlist.WriteFileIfChanged(r.ws.IngestList(), r.folders, rows); err != nil {
		r.journal.Ended()
		return r.check(err)
	}
	r.writeOCRWaiting(rows)
	// A run that ingested or dropped files may have left pages unused;
	// an unchanged rerun (a watch's, every few seconds) walks nothing.
	if len(r.targets) > 0 || r.prev == nil || len(rows) != len(r.prev.Rows) {
		r.sweepOCRCache(rows)
	}
	crashPoint("before-ended")
	if err := r.journal.Ended(); err != nil {
		return r.check(err)
	}
	return r.journalErr
}

// summary logs the end of the run (reference/indexing.md §15).
func (r *run) summary() {
	s := &r.sum
	r.logf(Info, "")
	if s.Stopped {
		r.logf(Warn, msgStopped, s.Succeeded, s.Failed+s.Postponed)
	} else {
		r.logf(Good, msgDone, s.Succeeded, s.Failed+s.Postponed)
	}
	if s.Dropped > 0 {
		r.logf(Warn, msgDropped, s.Dropped)
	}
	if s.CloudOnly > 0 {
		r.logf(Info, msgCloudSummary, s.CloudOnly)
	}
	if s.NoLibreOffice > 0 {
		r.logf(Warn, msgNoLibre, s.NoLibreOffice)
	}
	if s.NoText > 0 {
		r.logf(Warn, msgNoTextPDF, s.NoText)
	}
	if s.Unavailable > 0 {
		r.logf(Warn, msgUnavailable, s.Unavailable)
	}
	r.ocrSummary()
	r.logf(Info, msgSeeList, r.ws.IngestList())
	if len(s.Failures) == 0 {
		return
	}
	r.logf(Warn, msgFailHead)
	for i, f := range s.Failures {
		if i == failureListLimit {
			r.logf(Warn, msgFailMore, len(s.Failures)-failureListLimit)
			break
		}
		r.logf(Info, "  %s", f.RelPath)
		r.logf(Error, "    → %s", f.Msg)
	}
	r.logf(Info, "")
	r.logf(Warn, msgFailHint)
}

// Summarizer is a BodyIndex that also keeps the per-index summary that
// lets a search skip folders unopened (bodyindex.Store).
type Summarizer interface {
	WriteSummary(contentRoot, index string) error
}

// ChangeMarker is a BodyIndex whose summaries a search believes without
// checking folders unless the index is marked as changing (bodyindex
// changing.go): the run marks every index before it changes a folder, and
// WriteSummary clears the mark.
type ChangeMarker interface {
	MarkChanging(contentRoot, index string) error
}

// markChanging marks every index of the settings as changing, once, before
// the run's first change (rule 7; a run that changes nothing marks
// nothing); one that cannot be marked has its summary removed by the
// marker instead.
func (r *run) markChanging() {
	m, ok := r.opt.Body.(ChangeMarker)
	if !ok || r.marked {
		return
	}
	r.marked = true
	for _, root := range r.opt.Settings.Roots {
		if err := m.MarkChanging(r.ws.ContentRoot(), root.Name); err != nil {
			r.logf(Warn, msgSummaryFailed, root.Name, err)
		}
	}
}

// writeSourceFiles brings each root's source_folder.txt up to date
// (reference/indexing.md §2: rewritten every run), before the summaries,
// which note the folders' times. A file left unwritten only costs a
// copied index its recorded folder: logged, the run goes on.
func (r *run) writeSourceFiles() {
	if r.fault != nil {
		return
	}
	for _, root := range r.opt.Settings.Roots {
		if _, err := source.Write(r.ws.ContentRoot(), root.Name, root.Path); err != nil {
			if r.noteFault(err) {
				return
			}
			r.logf(Warn, msgSourceFile, root.Name, err)
		}
	}
}

// writeSummaries brings the summary of every index up to date once
// publishing is over; one that cannot be written only makes searches
// slower (they list the folders themselves). A full, read-only or failing
// disk is still the run's fault; a summary that a search holds open (serve
// on Windows keeps it open) is not.
func (r *run) writeSummaries() {
	s, ok := r.opt.Body.(Summarizer)
	if !ok {
		return
	}
	for _, root := range r.opt.Settings.Roots {
		err := s.WriteSummary(r.ws.ContentRoot(), root.Name)
		if err == nil {
			continue
		}
		if f := workspace.WriteFault(err); f != nil && f.Kind != workspace.FaultDenied && f.Kind != workspace.FaultInUse {
			r.noteFault(f)
			continue
		}
		r.logf(Warn, msgSummaryFailed, root.Name, err)
	}
}
