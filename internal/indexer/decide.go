package indexer

import (
	"cmp"
	"context"
	"errors"
	"os"
	"slices"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/workspace"
)

// CrawlAttrs is a seam for tests of cloud-only files (issue 9): nil uses
// the OS's attributes.
var CrawlAttrs crawl.Attributes

// rootScan is the crawl of one root (res is nil for a root that is not
// crawled: unchecked or missing).
type rootScan struct {
	root workspace.Root
	res  *crawl.Result
	kind string // 取り込み, チェックなし, 対象外 (not in OnlyNames), フォルダなし
}

// PlanRow is one line of the plan shown for confirmation
// (newIngestPlanRow, reference/indexing.md §6).
type PlanRow struct {
	Index, Path, Kind                                   string
	Files, Targets, New, Updated, Pending, Lost, Failed int
}

// Answer is the reply to a confirmation.
type Answer struct {
	Proceed     bool
	RetryFailed bool
	// TimedOut: nobody answered within the wait (reference/indexing.md
	// §5.3 step 15: 60 minutes); the run is declined with its own line.
	TimedOut bool
}

// crawlAndDecide crawls every enabled root, decides the targets, asks for
// confirmation when Options.Confirm is set, records removals, rewrites the
// ingest list with every target as 未取り込み and replaces the journal
// (reference/indexing.md §5.2–§5.4).
func (r *run) crawlAndDecide() error {
	r.logf(Info, msgOutput, r.ws.Root)
	r.logf(Info, "")
	r.logf(Info, msgCrawling)
	r.stats = ReadRunStats(r.ws)
	r.sum.OnlySkipped = r.opt.onlySkipped()
	for _, sk := range r.sum.OnlySkipped {
		r.logf(Warn, msgOnlySkipped, sk.Name, sk.Reason)
	}
	scans, err := r.crawlRoots()
	if err != nil {
		return err
	}
	r.keepOrphans()
	complete := r.completeChecker()
	retry := r.opt.RetryFailed
	plans := r.decideAll(scans, retry, complete)
	r.logCounts(scans, plans)
	if err := writeRunStats(r.ws, r.stats); err != nil {
		if r.noteFault(err) {
			return r.fault
		}
		r.logf(Warn, "    %v", err)
	}
	if r.opt.Confirm != nil {
		ans := r.opt.Confirm(append(planRows(scans, plans), r.freeRows()...))
		if !ans.Proceed {
			if ans.TimedOut {
				r.logf(Warn, msgConfirmTimedOut)
			} else {
				r.logf(Warn, msgDeclined)
			}
			return r.cancel(scans, plans)
		}
		if ans.RetryFailed != retry {
			retry = ans.RetryFailed
			plans = r.decideAll(scans, retry, complete)
		}
	}
	r.freeRemoved()
	removed := r.takePlans(scans, plans)
	r.targets = byFolder(r.targets)
	r.applyRedo()
	// The previous list is not read again (each target carries its
	// previous row): its rows and their map by path go (issue 21).
	r.prev = nil
	if err := r.recordRemovals(removed); err != nil {
		return r.check(err)
	}
	if err := r.writeListAndJournal(); err != nil {
		return err
	}
	if err := r.recordHiddenSheets(scans); err != nil && r.noteFault(err) {
		return r.fault
	}
	return nil
}

// crawlRoots crawls every root the run covers; the others are listed with
// the reason they are not crawled (the plan's kinds).
func (r *run) crawlRoots() ([]rootScan, error) {
	var scans []rootScan
	for _, root := range r.opt.Settings.Roots {
		r.folders = append(r.folders, ingestlist.Folder{Path: root.Path, Name: root.Name})
		if !root.IsEnabled() {
			r.logf(Info, msgRootDisabled, root.Name, root.Path)
			scans = append(scans, rootScan{root: root, kind: "チェックなし"})
			continue
		}
		if !r.opt.named(root.Name) {
			r.logf(Info, msgRootNotNamed, root.Name, root.Path)
			scans = append(scans, rootScan{root: root, kind: "対象外"})
			continue
		}
		only, _ := r.opt.scope(root.Name)
		res, err := crawl.Crawl(context.Background(), root, crawl.Options{Exclude: []string{r.ws.Root}, Attrs: CrawlAttrs, Only: only})
		if err != nil {
			return nil, err
		}
		if res.Missing {
			r.logf(Warn, msgRootMissing, root.Name, root.Path)
			scans = append(scans, rootScan{root: root, kind: "フォルダなし"})
			continue
		}
		r.logf(Info, "  「%s」 %s", root.Name, root.Path)
		for _, s := range res.Skipped {
			r.logf(Warn, msgSkippedItem, s.Path, s.Reason)
		}
		scans = append(scans, rootScan{root: root, res: res, kind: "取り込み"})
	}
	return scans, nil
}

// takePlans gathers the decided rows and targets of every root (the rows
// of roots not crawled are kept as they were) and returns the removals.
func (r *run) takePlans(scans []rootScan, plans []*plan.Root) []journal.Removal {
	var removed []journal.Removal
	failedSkipped, failedRetried := 0, 0
	for i, sc := range scans {
		p := plans[i]
		if p == nil {
			r.keepRows(sc.root.Name)
			continue
		}
		for _, row := range append(p.Removed, p.CloudDropped...) {
			removed = append(removed, journal.Removal{RelPath: row.RelPath, Folder: content.FolderOf(row.RelPath)})
		}
		for _, row := range p.Removed {
			r.finished(row.RelPath, OutcomeRemoved, "")
		}
		for _, t := range p.Targets {
			t.Row += len(r.rows)
			r.targets = append(r.targets, t)
		}
		if r.rows == nil {
			r.rows = p.Rows // the first root's rows are not copied
		} else {
			r.rows = append(r.rows, p.Rows...)
		}
		failedSkipped += p.FailedSkipped
		failedRetried += p.FailedRetried
	}
	if failedSkipped > 0 {
		r.logf(Warn, msgFailedSkip, failedSkipped)
	}
	if failedRetried > 0 {
		r.logf(Info, msgFailedRetry, failedRetried)
	}
	return removed
}

// byFolder orders the targets folder by folder, each folder where its
// first file was in the crawl's order (sorted by path, where a folder's
// files and its subfolders' interleave by name): a folder is published
// once nothing in it is pending, so a folder whose files lay far apart
// held its records in memory and in the run's batch files until its last
// one, and the batch files of a large share piled up (issue 35). The
// reference allows it: the order of work may differ from the list's,
// the output does not (reference/indexing.md §7.2).
func byFolder(targets []plan.Target) []plan.Target {
	first := map[string]int{}
	keys := make([]int, len(targets))
	for i, t := range targets {
		k := workspace.FoldKey(content.FolderOf(t.File.RelPath))
		at, ok := first[k]
		if !ok {
			at = len(first)
			first[k] = at
		}
		keys[i] = at
	}
	order := make([]int, len(targets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	out := make([]plan.Target, len(targets))
	for i, j := range order {
		out[i] = targets[j]
	}
	return out
}

// applyRedo moves the jobs a kill interrupted to the end of the targets,
// or fails them at the interrupt limit (seed).
func (r *run) applyRedo() {
	var in plan.Interrupted
	r.targets, in = plan.ApplyRedo(r.targets, r.rows, r.redo, r.now())
	for _, rel := range in.MovedLast {
		r.logf(Warn, "%s", journal.LogMovedLast(rel))
	}
	for _, row := range in.Failed {
		r.logf(Warn, "%s", journal.LogSkippedInterrupted(journal.InterruptLimit, row.RelPath))
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, Failure{RelPath: row.RelPath, Msg: row.Error})
	}
}

// writeListAndJournal rewrites the ingest list with every target as
// 未取り込み, then replaces the journal that counts its rows (rule 1), and
// opens the list for the run's rows.
func (r *run) writeListAndJournal() error {
	if r.idle() {
		return nil
	}
	r.markChanging() // rule 7: the run changes folders from here on
	if _, err := ingestlist.WriteFileIfChanged(r.ws.IngestList(), r.folders, r.rows); err != nil {
		return r.check(err)
	}
	crashPoint("after-list-rewrite")
	var carried []journal.Job
	for _, t := range r.targets {
		if t.Count > 0 {
			carried = append(carried, journal.Job{RelPath: t.File.RelPath, Count: t.Count})
		}
	}
	jw, err := journal.Create(r.ws.Journal(), r.now(), len(r.rows), carried, r.unpublish)
	if err != nil {
		return r.check(err)
	}
	r.journal = jw
	for _, f := range r.unpublish {
		r.toPublish[workspace.FoldKey(f)] = f
	}
	workspace.Remove(r.ws.LegacyIngesting())
	app, err := ingestlist.OpenAppender(r.ws.IngestList())
	if err != nil {
		return r.check(err)
	}
	r.appender = app
	return nil
}

// idle reports whether the run has nothing to write (an unchanged rerun,
// issue 21): no target, no folder to publish, no removal, no job to redo,
// no legacy ingesting.txt to fold in, a journal that a run with nothing to
// do left (journal.Log.Idle), and a list that holds exactly what its
// rewrite would write. Such a run writes neither the list nor the journal,
// at the start or at the end: each would be replaced by the same bytes (the
// journal's date aside, which nothing reads), so the files on disk already
// are what the seed's rewrites would leave, and a kill anywhere finds them
// whole. It opens no journal, so finish appends no 書 and no 終: the kept
// journal ends in them.
func (r *run) idle() bool {
	if !r.keepJournal || r.fault != nil || len(r.targets) > 0 || len(r.toPublish) > 0 || len(r.unpublish) > 0 || len(r.redo) > 0 {
		return false
	}
	if _, err := os.Lstat(r.ws.LegacyIngesting()); err == nil {
		return false
	}
	return ingestlist.Same(r.ws.IngestList(), r.folders, r.rows)
}

// keepRows carries the rows of a root that is not crawled (unchecked or
// missing): they stay as they are and stay searchable.
func (r *run) keepRows(index string) {
	prefix := workspace.FoldKey(index + `\`)
	for _, row := range r.prev.Rows {
		if k := row.Key(); len(k) > len(prefix) && k[:len(prefix)] == prefix {
			r.rows = append(r.rows, row)
		}
	}
}

// completeChecker returns testIndexComplete for 済 rows: the file is in its
// folder's body index (read once per folder), or its per-file folder holds
// at least TSV数 non-empty TSVs (a folder whose publish failed at the
// start); an empty source (TSV数 0) never counts as lost.
func (r *run) completeChecker() func(ingestlist.Row) bool {
	cache := map[string]map[string]int{}
	return func(row ingestlist.Row) bool {
		if row.HasTSVCount && row.TSVCount == 0 {
			return true
		}
		folder := content.FolderOf(row.RelPath)
		files, ok := cache[workspace.FoldKey(folder)]
		if !ok {
			if len(cache) >= checkerFolders {
				// The crawl's order visits a folder's files together,
				// but for those of its subfolders: a few folders at a
				// time are enough, and all of them would hold every
				// indexed file name (issue 21).
				clear(cache)
			}
			files = r.indexedFiles(folder)
			cache[workspace.FoldKey(folder)] = files
		}
		if n, ok := files[workspace.FoldKey(content.BaseOf(row.RelPath))]; ok && (!row.HasTSVCount || n >= row.TSVCount) {
			return true
		}
		n, ok := content.CountTSV(content.Dir(r.ws.ContentRoot(), row.RelPath))
		return ok && (!row.HasTSVCount || n >= row.TSVCount)
	}
}

// checkerFolders bounds the folders whose indexed files completeChecker
// keeps at once.
const checkerFolders = 64

// indexedFiles returns the files of a folder's body index with their place
// counts, keyed by FoldKey; an index of another version is rebuilt first,
// and an unreadable one counts as empty (its files are ingested again).
func (r *run) indexedFiles(folder string) map[string]int {
	dir := content.Dir(r.ws.ContentRoot(), folder)
	fs, err := r.opt.Body.Files(dir)
	var rebuild *format.RebuildError
	if errors.As(err, &rebuild) {
		r.rebuild(folder)
		fs, err = r.opt.Body.Files(dir)
	}
	if err != nil {
		r.logf(Warn, "    インデックスを読めないため、このフォルダのファイルを取り込み直します: %s", folder)
		r.logDetail(err.Error()) // the English cause, in indexing_log.txt only
	}
	files := map[string]int{}
	for name, n := range fs {
		files[workspace.FoldKey(name)] = n
	}
	return files
}

// decideAll decides every crawled root (nil for roots not crawled).
func (r *run) decideAll(scans []rootScan, retry bool, complete func(ingestlist.Row) bool) []*plan.Root {
	plans := make([]*plan.Root, len(scans))
	for i, sc := range scans {
		if sc.res == nil {
			continue
		}
		only, _ := r.opt.scope(sc.root.Name)
		var scope []string
		for _, p := range only {
			scope = append(scope, sc.root.Name+`\`+p)
		}
		plans[i] = plan.Decide(plan.Input{Root: sc.root, Crawl: sc.res, Prev: r.prev, Complete: complete,
			RetryFailed: retry, Version: extract.Version, Scope: scope, Again: r.again()})
	}
	return plans
}

// logCounts writes the per-root counts block (reference/indexing.md §3.6).
func (r *run) logCounts(scans []rootScan, plans []*plan.Root) {
	for i, sc := range scans {
		p := plans[i]
		if p == nil {
			continue
		}
		c := p.Counts
		line := sprintf(msgRootCounts, sc.root.Name, c.Total, c.Done, c.New, c.Updated, c.Pending, c.Failed)
		if c.Lost > 0 {
			line += sprintf(msgRootLostIdx, c.Lost)
		}
		r.logf(Info, "%s", line)
		if c.Lost > 0 {
			r.logf(Warn, msgLostIndex, c.Lost)
		}
		if c.CloudOnly > 0 {
			r.logf(Info, msgCloudOnly, c.CloudOnly)
			r.sum.CloudOnly += c.CloudOnly
		}
		r.stats[sc.root.Name] = IndexRunStats{CloudOnly: c.CloudOnly, HiddenSheets: r.stats[sc.root.Name].HiddenSheets}
		if sc.res.Incomplete {
			r.logf(Warn, msgScanError)
		}
		if len(p.Removed) > 0 {
			r.logf(Info, msgDeleted, len(p.Removed))
		}
	}
}

func planRows(scans []rootScan, plans []*plan.Root) []PlanRow {
	var out []PlanRow
	for i, sc := range scans {
		row := PlanRow{Index: sc.root.Name, Path: sc.root.Path, Kind: sc.kind}
		if p := plans[i]; p != nil {
			c := p.Counts
			row.Files, row.New, row.Updated, row.Pending, row.Lost, row.Failed = c.Total, c.New, c.Updated, c.Pending, c.Lost, c.Failed
			row.Targets = c.New + c.Updated + c.Pending + c.Lost
		}
		out = append(out, row)
	}
	return out
}

// kindFree is the plan's kind of an index to be deleted (reference/gui.md
// §3.2: registrations removed since the last run appear as 削除予定).
const kindFree = "削除予定"

// freeRows lists the indexes the run will delete, for the confirmation.
func (r *run) freeRows() []PlanRow {
	var out []PlanRow
	for _, rm := range r.toFree {
		out = append(out, PlanRow{Index: rm.Name, Path: rm.Path, Kind: kindFree})
	}
	return out
}

// recordRemovals writes removals to pending_remove.tsv before their rows
// disappear with the rewrite (rule 5) and deletes their per-file folders.
func (r *run) recordRemovals(removed []journal.Removal) error {
	if len(removed) == 0 {
		return nil
	}
	r.markChanging() // rule 7: per-file folders go below
	r.noPendingRemove = false
	if err := journal.AddPendingRemove(r.ws.PendingRemove(), removed); err != nil {
		return err
	}
	crashPoint("after-pending-remove")
	for _, rm := range removed {
		content.RemoveFileFolder(content.Dir(r.ws.ContentRoot(), rm.RelPath))
		k := workspace.FoldKey(rm.Folder)
		r.removals[k] = append(r.removals[k], content.BaseOf(rm.RelPath))
		r.toPublish[k] = rm.Folder
	}
	return nil
}

// cancel ends a run declined at the confirmation step (reference
// indexing.md §5.3 step 16, seed on cloud-only files): targets keep their
// previous rows, files without one get none, cloud-only files keep their
// previous rows and content; deletions found by the crawl are applied; the
// journal is left as it was.
func (r *run) cancel(scans []rootScan, plans []*plan.Root) error {
	var removed []journal.Removal
	for i, sc := range scans {
		p := plans[i]
		if p == nil {
			r.keepRows(sc.root.Name)
			continue
		}
		for _, row := range p.Removed {
			removed = append(removed, journal.Removal{RelPath: row.RelPath, Folder: content.FolderOf(row.RelPath)})
		}
		targets := map[string]bool{}
		for _, t := range p.Targets {
			targets[workspace.FoldKey(t.File.RelPath)] = true
		}
		for _, row := range p.Rows {
			if !targets[row.Key()] {
				r.rows = append(r.rows, row)
			} else if prev, ok := r.prev.Lookup(row.RelPath); ok {
				r.rows = append(r.rows, prev)
			}
		}
		r.rows = append(r.rows, p.CloudDropped...)
	}
	// The indexes to delete stay, rows and folder line with them, until
	// a run goes ahead.
	for _, rm := range r.toFree {
		if rm.Path != "" {
			r.folders = append(r.folders, ingestlist.Folder{Name: rm.Name, Path: rm.Path})
		}
		r.keepRows(rm.Name)
	}
	if err := r.recordRemovals(removed); err != nil {
		return r.check(err)
	}
	if _, err := ingestlist.WriteFileIfChanged(r.ws.IngestList(), r.folders, r.rows); err != nil {
		return r.check(err)
	}
	r.sum.Stopped, r.sum.Cancelled = true, true
	return errCancelled
}

// errCancelled ends crawlAndDecide after a declined confirmation.
var errCancelled = errors.New("indexer: cancelled at the confirmation step")
