package indexer

import (
	"context"
	"os"

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

// crawlAndDecide crawls every enabled root, decides the targets, records
// removals, rewrites the ingest list with every target as 未取り込み and
// replaces the journal (reference/indexing.md §5.2–§5.4).
func (r *run) crawlAndDecide() error {
	r.logf(Info, msgOutput, r.ws.ContentRoot())
	r.logf(Info, "")
	r.logf(Info, msgCrawling)
	complete := r.completeChecker()
	r.stats = ReadRunStats(r.ws)
	var removed []journal.Removal
	failedSkipped, failedRetried := 0, 0
	for _, root := range r.opt.Settings.Roots {
		r.folders = append(r.folders, ingestlist.Folder{Path: root.Path, Name: root.Name})
		if !root.IsEnabled() {
			r.logf(Info, msgRootDisabled, root.Name, root.Path)
			r.keepRows(root.Name)
			continue
		}
		res, err := crawl.Crawl(context.Background(), root, crawl.Options{Exclude: []string{r.ws.Root}, Attrs: CrawlAttrs})
		if err != nil {
			return err
		}
		if res.Missing {
			r.logf(Warn, msgRootMissing, root.Name, root.Path)
			r.keepRows(root.Name)
			continue
		}
		r.logf(Info, "  [%s] %s", root.Name, root.Path)
		for _, s := range res.Skipped {
			r.logf(Warn, msgSkippedItem, s.Path, s.Reason)
		}
		p := plan.Decide(plan.Input{Root: root, Crawl: res, Prev: r.prev, Complete: complete,
			RetryFailed: r.opt.RetryFailed, Version: extract.Version})
		c := p.Counts
		line := sprintf(msgRootCounts, root.Name, c.Total, c.Done, c.New, c.Updated, c.Pending, c.Failed)
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
		r.stats[root.Name] = IndexRunStats{CloudOnly: c.CloudOnly}
		if res.Incomplete {
			r.logf(Warn, msgScanError)
		}
		if len(p.Removed) > 0 {
			r.logf(Info, msgDeleted, len(p.Removed))
		}
		for _, row := range append(p.Removed, p.CloudDropped...) {
			removed = append(removed, journal.Removal{RelPath: row.RelPath, Folder: content.FolderOf(row.RelPath)})
		}
		r.rows = append(r.rows, p.Rows...)
		r.targets = append(r.targets, p.Targets...)
		failedSkipped += p.FailedSkipped
		failedRetried += p.FailedRetried
	}
	if err := writeRunStats(r.ws, r.stats); err != nil {
		r.logf(Warn, "    %v", err)
	}
	if failedSkipped > 0 {
		r.logf(Warn, msgFailedSkip, failedSkipped)
	}
	if failedRetried > 0 {
		r.logf(Info, msgFailedRetry, failedRetried)
	}
	r.indexRows()

	var in plan.Interrupted
	r.targets, in = plan.ApplyRedo(r.targets, r.rows, r.redo, r.now())
	for _, rel := range in.MovedLast {
		r.logf(Warn, "%s", journal.LogMovedLast(rel))
	}
	for _, row := range in.Failed {
		r.logf(Warn, "%s", journal.LogSkippedInterrupted(journal.InterruptLimit, row.RelPath))
		r.sum.Failures = append(r.sum.Failures, Failure{RelPath: row.RelPath, Msg: row.Error})
	}

	// Removals are recorded before their rows disappear with the rewrite
	// (rule 5), and their per-file folders go at once.
	if len(removed) > 0 {
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
	}

	// Rule 1: the list first, then the journal that counts its rows.
	if err := ingestlist.WriteFile(r.ws.IngestList(), r.folders, r.rows); err != nil {
		return err
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
		return err
	}
	r.journal = jw
	for _, f := range r.unpublish {
		r.toPublish[workspace.FoldKey(f)] = f
	}
	os.Remove(r.ws.LegacyIngesting())
	app, err := ingestlist.OpenAppender(r.ws.IngestList())
	if err != nil {
		return err
	}
	r.appender = app
	return nil
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

func (r *run) indexRows() {
	r.rowAt = make(map[string]int, len(r.rows))
	for i, row := range r.rows {
		r.rowAt[row.Key()] = i
	}
}

// completeChecker returns testIndexComplete for 済 rows: the file is in its
// folder's body index, or its per-file folder holds at least TSV数 non-empty
// TSVs; an empty source (TSV数 0) never counts as lost.
func (r *run) completeChecker() func(ingestlist.Row) bool {
	cache := map[string]map[string]int{}
	return func(row ingestlist.Row) bool {
		if row.HasTSVCount && row.TSVCount == 0 {
			return true
		}
		dir := content.Dir(r.ws.ContentRoot(), row.RelPath)
		if n, ok := content.CountTSV(dir); ok && (!row.HasTSVCount || n >= row.TSVCount) {
			return true
		}
		folder := workspace.FoldKey(content.FolderOf(row.RelPath))
		files, ok := cache[folder]
		if !ok {
			fs, err := r.opt.Body.Files(content.Dir(r.ws.ContentRoot(), content.FolderOf(row.RelPath)))
			if err != nil {
				r.logf(Warn, "    本文インデックスを読めないため、このフォルダのファイルを取り込み直します: %s（%v）", content.FolderOf(row.RelPath), err)
				fs = map[string]int{}
			}
			files = map[string]int{}
			for name, n := range fs {
				files[workspace.FoldKey(name)] = n
			}
			cache[folder] = files
		}
		n, ok := files[workspace.FoldKey(content.BaseOf(row.RelPath))]
		return ok && (!row.HasTSVCount || n >= row.TSVCount || row.TSVCount == 0)
	}
}
