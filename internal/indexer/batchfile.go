package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The batch path (issue 35). A small file's places come back on the
// worker's pipe (worker.Response.Places) instead of through a per-file
// folder that is created, fsynced, renamed, listed and deleted: the
// coordinator appends them as one record to the run's batch file
// (content/batch.go: work/store/batch/<run>.places), which the group
// commit fsyncs once before the rows that claim its records (rule 3), and
// hands a folder's records to its publish (bodyindex.PublishFresh). The
// records of folders not yet published stay in memory up to batchKeep
// bytes of text; beyond that only their offsets, read back at the publish.
//
// The run deletes its batch file at its end, once every folder it names
// is published and the final commit has made their 出 durable. A run
// killed before leaves it: the next start reads every batch file
// (content.LatestRecords: later records win, a torn tail is ignored),
// publishes with them the folders the journal shows unpublished, and
// deletes them once those publishes and their 出 are durable, before the
// new journal replaces the old one. So when a run writes its journal, no
// earlier batch file is left, and a record is never published over a
// newer text of its file.
//
// A file larger than content.InlineMax, or with text JSON cannot carry
// unchanged, keeps its per-file folder, as do folders an earlier version
// left: both are still read by every publish.
type batchState struct {
	w *content.BatchWriter
	// refs are the records of the folders not yet published (folder key →
	// records, in append order); kept is the text they hold in memory.
	refs map[string][]batchRef
	kept int64
	// old are the previous runs' batch files the start read, and
	// oldRecs their latest records by folder key.
	old     []string
	oldRecs map[string][]content.BatchRecord
}

// batchRef is one record of the run's batch file: its file, and its
// places when kept in memory, else where it lies in the file.
type batchRef struct {
	name          string
	mtime, size   int64
	places        []extract.Place
	off, n, bytes int64
}

// batchKeep is how much text of unpublished folders' records the
// coordinator keeps in memory (bodyindex's keepText is the same bound for
// one publish). A variable for tests.
var batchKeep = int64(64 << 20)

// freshPublisher is a BodyIndex that takes batch records
// (bodyindex.Store); a run whose BodyIndex is not one gets every file's
// places through per-file folders, as before.
type freshPublisher interface {
	PublishFresh(dir string, removed []string, trash *content.Trash, fresh []bodyindex.Fresh) error
}

// inline reports whether workers may return places inline.
func (r *run) inline() bool {
	_, ok := r.opt.Body.(freshPublisher)
	return ok
}

// appendBatch appends a file's record to the run's batch file (created at
// the first), remembering it for its folder's publish. It is not durable
// until the next commit. rec.Encoded is the places as the worker sent
// them (content.AppendPlaces' bytes), written as they are.
func (r *run) appendBatch(rec content.BatchRecord) error {
	b := &r.batchFile
	if b.w == nil {
		name := fmt.Sprintf("%020d-%d%s", time.Now().UnixNano(), os.Getpid(), content.BatchExt)
		w, err := content.CreateBatch(filepath.Join(r.ws.BatchDir(), name))
		if err != nil {
			return err
		}
		b.w = w
	}
	off, n, err := b.w.Append(rec)
	if err != nil {
		return err
	}
	crashPoint("after-batch-append")
	rel, places := rec.Path, rec.Places
	ref := batchRef{name: content.BaseOf(rel), mtime: rec.ModTime, size: rec.Size, off: off, n: n}
	for _, p := range places {
		for _, l := range p.Lines {
			ref.bytes += int64(len(l)) + 1
		}
	}
	if b.kept+ref.bytes <= batchKeep {
		ref.places = places
		b.kept += ref.bytes
	}
	if b.refs == nil {
		b.refs = map[string][]batchRef{}
	}
	fk := workspace.FoldKey(content.FolderOf(rel))
	b.refs[fk] = append(b.refs[fk], ref)
	return nil
}

// syncBatch makes the records appended so far durable (the group
// commit's first step).
func (r *run) syncBatch() error {
	if r.batchFile.w == nil {
		return nil
	}
	return r.batchFile.w.Sync()
}

// batchDirty reports whether records wait for the commit's fsync.
func (r *run) batchDirty() bool { return r.batchFile.w != nil && r.batchFile.w.Dirty() }

// freshOf returns the batch records of folder for its publish: the run's
// own, or at the start those the previous runs left. Their Load reads
// nothing of the run's state, so the publisher's goroutines may call it.
func (r *run) freshOf(folder string) []bodyindex.Fresh {
	b := &r.batchFile
	fk := workspace.FoldKey(folder)
	var out []bodyindex.Fresh
	for _, rec := range b.oldRecs[fk] {
		places := rec.Places
		out = append(out, bodyindex.Fresh{Name: content.BaseOf(rec.Path), ModTime: rec.ModTime, Size: rec.Size,
			Load: func() ([]extract.Place, error) { return places, nil }})
	}
	refs := b.refs[fk]
	if len(refs) == 0 {
		return out
	}
	// One record per file: a later one wins (a file is ingested once per
	// run, so this is a guard, not a case).
	last := map[string]int{}
	for i, ref := range refs {
		last[workspace.FoldKey(ref.name)] = i
	}
	path := b.w.Path()
	for i, ref := range refs {
		if last[workspace.FoldKey(ref.name)] != i {
			continue
		}
		f := bodyindex.Fresh{Name: ref.name, ModTime: ref.mtime, Size: ref.size}
		if ref.places != nil {
			places := ref.places
			f.Load = func() ([]extract.Place, error) { return places, nil }
		} else {
			off, n := ref.off, ref.n
			f.Load = func() ([]extract.Place, error) {
				rf, err := workspace.OpenRead(path)
				if err != nil {
					return nil, fmt.Errorf("indexer: read %s: %w", path, err)
				}
				defer rf.Close()
				rec, err := content.ReadBatchAt(rf, off, n)
				return rec.Places, err
			}
		}
		out = append(out, f)
	}
	return out
}

// batchNames returns the names of the files of folder that batch records
// hold (for a folder set aside: they fail with it).
func (r *run) batchNames(folder string) []string {
	b := &r.batchFile
	fk := workspace.FoldKey(folder)
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if k := workspace.FoldKey(name); !seen[k] {
			seen[k] = true
			out = append(out, name)
		}
	}
	for _, rec := range b.oldRecs[fk] {
		add(content.BaseOf(rec.Path))
	}
	for _, ref := range b.refs[fk] {
		add(ref.name)
	}
	return out
}

// forgetBatch drops the records of folder once it is published (or set
// aside).
func (r *run) forgetBatch(folder string) {
	b := &r.batchFile
	fk := workspace.FoldKey(folder)
	for _, ref := range b.refs[fk] {
		if ref.places != nil {
			b.kept -= ref.bytes
		}
	}
	delete(b.refs, fk)
	delete(b.oldRecs, fk)
}

// dropBatch records in the run's batch file that folder's records no
// longer count (a 'D' record): a folder set aside during the run fails
// its files, and a kill before its 出 must not publish their text at the
// next start. The commit that makes their 失敗 rows durable syncs it
// first.
func (r *run) dropBatch(folder string) {
	b := &r.batchFile
	if b.w == nil || len(b.refs[workspace.FoldKey(folder)]) == 0 {
		return
	}
	if _, _, err := b.w.Append(content.BatchRecord{Drop: true, Path: folder}); err != nil && !r.noteFault(err) {
		r.logf(Warn, msgPublishFail, err)
	}
}

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

// beforeBatchDelete is a seam: tests look at the run's batch file just
// before the run deletes it.
var beforeBatchDelete = func(path string) {}

// removeBatch deletes the run's batch file at its end (finish), after the
// final commit, when every folder it names is published: otherwise the
// next start needs it.
func (r *run) removeBatch() {
	b := &r.batchFile
	if b.w == nil {
		return
	}
	if err := b.w.Close(); err != nil {
		r.logDetail(err.Error())
	}
	if r.fault != nil || len(b.refs) > 0 {
		return
	}
	crashPoint("before-batch-delete")
	beforeBatchDelete(b.w.Path())
	if err := workspace.Remove(b.w.Path()); err != nil && !os.IsNotExist(err) {
		r.logDetail(err.Error())
	}
	b.w = nil
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
