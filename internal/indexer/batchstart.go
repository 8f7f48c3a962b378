package indexer

import (
	"os"
	"sort"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The start's side of the batch path (batchfile.go): the batch files a
// killed run left are read, their folders published, the finished files
// they stand for kept, and the files deleted before the new journal.

// readOldBatches reads the batch files the previous runs left (start):
// their latest records by folder. It returns the folders they name.
func (r *run) readOldBatches() map[string]string {
	b := &r.batchFile
	paths, err := content.ListBatches(r.ws.BatchDir())
	if err != nil {
		r.noteFault(err)
		r.logDetail(err.Error())
		return nil
	}
	if len(paths) == 0 {
		return nil
	}
	latest, torn, err := content.LatestRecords(paths)
	if err != nil {
		r.noteFault(err)
		r.logDetail(err.Error())
		return nil
	}
	for _, t := range torn {
		// A kill or a power loss cut the last record: its file has no
		// durable row, and is ingested again.
		r.logDetail("batch file ends early: " + t)
	}
	b.old = paths
	b.oldRecs = map[string][]content.BatchRecord{}
	folders := map[string]string{}
	keys := make([]string, 0, len(latest))
	for k := range latest {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rec := latest[k]
		folder := content.FolderOf(rec.Path)
		fk := workspace.FoldKey(folder)
		b.oldRecs[fk] = append(b.oldRecs[fk], rec)
		folders[fk] = folder
	}
	return folders
}

// keepOldBatches limits the previous runs' records to the folders the
// start publishes: any other folder was published with them already (its
// 出 is in the journal).
func (r *run) keepOldBatches(folders map[string]string) {
	for fk := range r.batchFile.oldRecs {
		if _, ok := folders[fk]; !ok {
			delete(r.batchFile.oldRecs, fk)
		}
	}
}

// removeOldBatches deletes the previous runs' batch files once the start
// has published their folders and the journal holds their 出 durably
// (before the new journal replaces it). A file that cannot be deleted is
// a workspace fault: the run stops rather than leave a record that a later
// start could publish over a newer text.
func (r *run) removeOldBatches() {
	b := &r.batchFile
	if len(b.old) == 0 {
		return
	}
	crashPoint("before-old-batch-delete")
	for _, p := range b.old {
		if err := workspace.Remove(p); err != nil && !os.IsNotExist(err) {
			if !r.noteFault(err) {
				r.noteFault(&workspace.FaultError{Kind: workspace.FaultIO, Path: p, Err: err})
			}
			return
		}
	}
	if err := workspace.SyncDir(r.ws.BatchDir()); err != nil {
		r.noteFault(err)
	}
	b.old, b.oldRecs = nil, nil
}

// keepFinished takes from r.redo the jobs whose result a record of the
// previous runs' batch files stands for (content.BatchRecord.Version): the
// kill found them finished, their records written, but their 済 rows not
// yet committed (the group commit paces rows, commit.go). Counting them
// as interrupted would bring an innocent file nearer the interrupt limit
// with every kill, and ingest it again; the record proves what the lost
// row would have said, when it names the crawled time and size the row
// of the job holds (the run's rewrite of the list wrote them, rule 1).
// Their rows become 済 in the previous list's rows, which the plan reads;
// appendKept appends them once their folders are published. Call it after
// keepOldBatches: only the records of folders the start publishes count.
func (r *run) keepFinished() []string {
	b := &r.batchFile
	if len(r.redo) == 0 || len(b.oldRecs) == 0 {
		return nil
	}
	recs := map[string]content.BatchRecord{}
	for _, folder := range b.oldRecs {
		for _, rec := range folder {
			recs[workspace.FoldKey(rec.Path)] = rec
		}
	}
	var kept []string
	redo := r.redo[:0]
	for _, job := range r.redo {
		rec, ok := recs[workspace.FoldKey(job.RelPath)]
		i, found := r.prev.Find(job.RelPath)
		if !ok || !found || rec.Version == 0 || rec.ModTime == 0 {
			redo = append(redo, job)
			continue
		}
		row := r.prev.Rows[i]
		if row.Size != rec.Size || !row.SameUpdated(ingestlist.FormatFileTime(time.Unix(0, rec.ModTime))) {
			redo = append(redo, job)
			continue
		}
		r.prev.Rows[i] = doneRow(row, len(rec.Places), rec.Ingested, rec.Version)
		kept = append(kept, job.RelPath)
	}
	r.redo = redo
	if len(kept) > 0 {
		r.logf(Info, msgKeptFinished, len(kept))
	}
	return kept
}

// appendKept appends the rows keepFinished made 済, once the start has
// published their folders (their places are then in the body index,
// durable, before a row claims them; rule 3) and before the batch files
// go. A file whose folder was set aside meanwhile has its 失敗 row
// appended already.
func (r *run) appendKept(kept []string) {
	var rows []ingestlist.Row
	for _, rel := range kept {
		if row, ok := r.prev.Lookup(rel); ok && row.State == ingestlist.Done {
			rows = append(rows, row)
		}
	}
	r.appendRows(rows)
}
