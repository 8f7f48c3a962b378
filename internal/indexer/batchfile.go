package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
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
// A batch file that has grown past batchRotate is closed at a commit (all
// its records durable) and the next record starts a new one: a build of a
// large share would otherwise keep a copy of all its small files' text
// until its end, and a start after a kill late in it would read that copy
// whole. A closed file is deleted by the first commit that finds every
// folder with records in it published: that commit makes their 出 durable
// before the deletion. The run deletes its last batch file (and any
// closed one left) at its end, once every folder it names is published
// and the final commit has made their 出 durable. A run killed before
// leaves them: the next start reads every batch file
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
	// folders are the keys of the folders with records in w not yet
	// published; closed are the run's earlier batch files, each with its
	// own.
	folders map[string]bool
	closed  []closedBatch
	// lastName is the time in the name of the run's last batch file.
	lastName int64
	// refs are the records of the folders not yet published (folder key →
	// records, in append order); kept is the text they hold in memory.
	refs map[string][]batchRef
	kept int64
	// old are the previous runs' batch files the start read, and
	// oldRecs their latest records by folder key.
	old     []string
	oldRecs map[string][]content.BatchRecord
}

// batchRef is one record of the run's batch files: its file, and its
// places when kept in memory, else the batch file and where it lies there.
type batchRef struct {
	name          string
	mtime, size   int64
	places        []extract.Place
	path          string
	off, n, bytes int64
}

// closedBatch is a batch file of the run closed at a commit, with the
// keys of the folders with records in it not yet published.
type closedBatch struct {
	path    string
	folders map[string]bool
}

// batchRotate is the size past which a commit closes the run's batch file
// (a variable for tests).
var batchRotate = int64(64 << 20)

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
	if err := r.openBatch(); err != nil {
		return err
	}
	b := &r.batchFile
	off, n, err := b.w.Append(rec)
	if err != nil {
		return err
	}
	crashPoint("after-batch-append")
	rel, places := rec.Path, rec.Places
	ref := batchRef{name: content.BaseOf(rel), mtime: rec.ModTime, size: rec.Size, path: b.w.Path(), off: off, n: n}
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
	b.folders[fk] = true
	return nil
}

// openBatch creates the run's batch file when it has none (the first
// record, or the first after a commit closed the last file).
func (r *run) openBatch() error {
	b := &r.batchFile
	if b.w != nil {
		return nil
	}
	// Names sort in the order the files were begun (the start reads them
	// oldest first), even if the clock is set back.
	b.lastName = max(time.Now().UnixNano(), b.lastName+1)
	name := fmt.Sprintf("%020d-%d%s", b.lastName, os.Getpid(), content.BatchExt)
	w, err := content.CreateBatch(filepath.Join(r.ws.BatchDir(), name))
	if err != nil {
		return err
	}
	b.w, b.folders = w, map[string]bool{}
	return nil
}

// syncBatch makes the records appended so far durable (the group
// commit's first step), and closes the batch file once it has grown past
// batchRotate: the next record starts a new one.
func (r *run) syncBatch() error {
	b := &r.batchFile
	if b.w == nil {
		return nil
	}
	if err := b.w.Sync(); err != nil {
		return err
	}
	if b.w.Size() < batchRotate {
		return nil
	}
	if err := b.w.Close(); err != nil {
		r.logDetail(err.Error())
	}
	b.closed = append(b.closed, closedBatch{path: b.w.Path(), folders: b.folders})
	b.w, b.folders = nil, nil
	return nil
}

// publishedBatches takes the closed batch files whose folders are all
// published, at a commit's start: the commit makes their 出 durable, and
// then deleteBatches deletes them.
func (r *run) publishedBatches() []string {
	b := &r.batchFile
	var done []string
	open := b.closed[:0]
	for _, c := range b.closed {
		if len(c.folders) == 0 {
			done = append(done, c.path)
		} else {
			open = append(open, c)
		}
	}
	b.closed = open
	return done
}

// deleteBatches deletes closed batch files at the end of the commit that
// made the 出 of their folders durable. One that cannot be deleted stays
// for the run's end (removeBatch); its records are older than any a later
// run writes, and the next start publishes none of their folders.
func (r *run) deleteBatches(paths []string) {
	if len(paths) == 0 {
		return
	}
	b := &r.batchFile
	if r.fault != nil || r.journalErr != nil {
		// The 出 may not be durable: the start may need the records.
		for _, p := range paths {
			b.closed = append(b.closed, closedBatch{path: p})
		}
		return
	}
	crashPoint("before-closed-batch-delete")
	for _, p := range paths {
		beforeBatchDelete(p)
		if err := workspace.Remove(p); err != nil && !os.IsNotExist(err) {
			r.logDetail(err.Error())
			b.closed = append(b.closed, closedBatch{path: p})
			continue
		}
		closedBatchDeleted(p)
	}
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
	for i, ref := range refs {
		if last[workspace.FoldKey(ref.name)] != i {
			continue
		}
		f := bodyindex.Fresh{Name: ref.name, ModTime: ref.mtime, Size: ref.size}
		if ref.places != nil {
			places := ref.places
			f.Load = func() ([]extract.Place, error) { return places, nil }
		} else {
			path, off, n := ref.path, ref.off, ref.n
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
	delete(b.folders, fk)
	for _, c := range b.closed {
		delete(c.folders, fk)
	}
}

// dropBatch records in the run's batch file that folder's records no
// longer count (a 'D' record): a folder set aside during the run fails
// its files, and a kill before its 出 must not publish their text at the
// next start. The commit that makes their 失敗 rows durable syncs it
// first.
func (r *run) dropBatch(folder string) {
	b := &r.batchFile
	if len(b.refs[workspace.FoldKey(folder)]) == 0 {
		return
	}
	// The records may lie in a closed file: the drop goes to the current
	// one, which the start reads after it.
	err := r.openBatch()
	if err == nil {
		_, _, err = b.w.Append(content.BatchRecord{Drop: true, Path: folder})
	}
	if err != nil && !r.noteFault(err) {
		r.logf(Warn, msgPublishFail, err)
	}
}

// beforeBatchDelete is a seam: tests look at the run's batch files just
// before the run deletes them; closedBatchDeleted tells them a commit
// deleted a closed one.
var beforeBatchDelete, closedBatchDeleted = func(path string) {}, func(path string) {}

// removeBatch deletes the run's batch files at its end (finish), after the
// final commit, when every folder they name is published: otherwise the
// next start needs them.
func (r *run) removeBatch() {
	b := &r.batchFile
	if b.w == nil && len(b.closed) == 0 {
		return
	}
	var paths []string
	for _, c := range b.closed {
		paths = append(paths, c.path)
	}
	if b.w != nil {
		if err := b.w.Close(); err != nil {
			r.logDetail(err.Error())
		}
		paths = append(paths, b.w.Path())
	}
	if r.fault != nil || len(b.refs) > 0 {
		return
	}
	crashPoint("before-batch-delete")
	for _, p := range paths {
		beforeBatchDelete(p)
		if err := workspace.Remove(p); err != nil && !os.IsNotExist(err) {
			r.logDetail(err.Error())
		}
	}
	b.w, b.closed = nil, nil
}
