package indexer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/share"
	"github.com/fumibako/fumibako/internal/workspace"
)

// start reads the ingest list and the journal, drops the indexes of removed
// roots, and publishes what the previous run left unpublished (seed:
// convertFromIngestJournal, reference/indexing.md §5.1).
func (r *run) start() error {
	r.phase(PhaseCrawl)
	prev, err := r.readList()
	if err != nil {
		return err
	}
	r.prev = prev
	jl, err := journal.ReadFile(r.ws.Journal())
	if err != nil {
		return err
	}
	// The keys of the lines the previous run appended (recovery reads
	// no earlier one); the others stay "".
	keys := make([]string, prev.DataLines)
	from := jl.RunRows()
	for _, l := range prev.Lines {
		if from >= 0 && l.Index >= from && l.Index < len(keys) {
			keys[l.Index] = prev.Rows[l.Row].Key()
		}
	}
	rec := jl.Recover(keys)
	for k, n := range rec.Publishing {
		r.tries[k] = n
	}
	r.keepJournal = jl.Idle(prev.DataLines)
	if !r.keepJournal {
		// Rule 7 before the start changes anything: the leftovers of a
		// swap cut by a crash (or held open, on Windows) go, folders are
		// published. After a run with nothing to do there are none (its
		// own start removed them, and it swapped nothing), so an
		// unchanged rerun neither marks nor walks the content tree for
		// them (issue 21): only a run that swapped leaves a journal with
		// its 始 records, and the next start looks.
		r.markChanging()
		if n, err := content.RemoveLeftovers(r.ws.ContentRoot()); err == nil && n > 0 {
			r.logf(Info, "    前回の中断で残った作業用フォルダ %d 個を片付けました。", n)
		}
	}
	r.redo = rec.Redo
	if legacy, err := journal.ReadLegacyIngestingFile(r.ws.LegacyIngesting()); err == nil {
		r.redo = append(r.redo, legacy...)
	}

	r.dropRemovedIndexes()

	// Folders to publish before anything else: those the journal shows
	// unpublished, with the batch records the previous runs left for them
	// (batchfile.go).
	folders := map[string]string{}
	batchFolders := r.readOldBatches()
	if rec.Readable {
		for _, f := range rec.Unpublished {
			folders[workspace.FoldKey(f)] = f
		}
	} else {
		dirs, err := content.FindFileFolders(r.ws.ContentRoot())
		if err != nil {
			r.logf(Warn, "  インデックスのフォルダを調べられないため、インデックスが残っているかの確認は行いません。")
		}
		for _, d := range dirs {
			if rel, ok := content.RelOf(r.ws.ContentRoot(), filepath.Dir(d)); ok {
				folders[workspace.FoldKey(rel)] = rel
			}
		}
		for k, f := range batchFolders {
			folders[k] = f
		}
	}
	r.keepOldBatches(folders)
	kept := r.keepFinished()
	if err := r.readPendingRemove(folders); err != nil {
		return err
	}
	if len(folders) == 0 {
		r.removeOldBatches()
		return r.faultErr()
	}
	r.markChanging() // (pending removals after an idle journal)
	r.publishLeftovers(folders, rec.Readable)
	// A workspace fault stops the run here: the journal is not replaced,
	// so the next start finds the same folders to publish, and the same
	// batch files. Otherwise their folders are published and their 出
	// durable (closeStartJournal): the batch files go before the new
	// journal replaces the old one.
	if r.fault == nil {
		r.appendKept(kept)
	}
	if r.fault == nil {
		r.removeOldBatches()
	}
	return r.faultErr()
}

// readPendingRemove adds the removals store/pending_remove.tsv holds to
// the folders to publish first (folder key → folder) and to r.removals,
// and notes when there is no such file (noPendingRemove).
func (r *run) readPendingRemove(folders map[string]string) error {
	pending, err := journal.ReadPendingRemove(r.ws.PendingRemove())
	if err != nil {
		return err
	}
	if len(pending) == 0 {
		_, err := os.Lstat(r.ws.PendingRemove())
		r.noPendingRemove = errors.Is(err, fs.ErrNotExist)
	}
	for _, rm := range pending {
		k := workspace.FoldKey(rm.Folder)
		folders[k] = rm.Folder
		r.removals[k] = append(r.removals[k], content.BaseOf(rm.RelPath))
	}
	return nil
}

// publishLeftovers publishes the folders the previous run left (folder
// key → folder), in order of their keys, recording each publish in that
// run's journal when it can be read back (試, 出): a folder the process
// died in publishLimit times in a row is set aside instead (poison.go).
// Those that cannot be published are carried (r.unpublish).
func (r *run) publishLeftovers(folders map[string]string, readable bool) {
	r.logf(Info, msgLeftovers, len(folders))
	keysSorted := make([]string, 0, len(folders))
	for k := range folders {
		keysSorted = append(keysSorted, k)
	}
	sort.Strings(keysSorted)
	r.openStartJournal(readable)
	defer r.closeStartJournal()
	for _, k := range keysSorted {
		if n := r.tries[k]; n >= publishLimit {
			r.setAsideKilled(folders[k], n)
			continue
		}
		if !r.publish(folders[k]) {
			r.unpublish = append(r.unpublish, folders[k])
		}
	}
}

// readList reads the ingest list. One in another form (re-saved by Excel)
// is read and said so; one that cannot be read stops the run, the list
// left as it is, unless Options.ResetList moves it aside to start over.
func (r *run) readList() (*ingestlist.List, error) {
	l, err := ingestlist.ReadFile(r.ws.IngestList())
	var fe *ingestlist.FormatError
	switch {
	case errors.As(err, &fe) && !r.opt.ResetList:
		return nil, &FatalError{Msg: fe.Error() + msgListStop}
	case errors.As(err, &fe):
		moved, merr := workspace.MoveAside(r.ws.IngestList())
		if merr != nil {
			return nil, merr
		}
		r.logf(Warn, "%s", fe.Error())
		r.logf(Warn, msgListReset, moved)
		return &ingestlist.List{}, nil
	case err != nil:
		return nil, err
	}
	if l.Encoding != "" && l.Encoding != ingestlist.Native {
		r.logf(Warn, msgListForeign, l.Encoding)
	}
	r.logSkips(l)
	if len(l.Lost) == 0 {
		return l, nil
	}
	// Rows whose names lost characters (listlost.go): each is the file
	// it can only be, or the run stops as for a list it cannot read.
	lines := r.resolveLost(l)
	if len(lines) == 0 {
		return l, nil
	}
	text := sprintf(msgListLost, r.ws.IngestList(), lostLines(lines))
	if !r.opt.ResetList {
		return nil, &FatalError{Msg: text + msgListStop}
	}
	moved, err := workspace.MoveAside(r.ws.IngestList())
	if err != nil {
		return nil, err
	}
	r.logf(Warn, "%s", text)
	r.logf(Warn, msgListReset, moved)
	return &ingestlist.List{}, nil
}

// recoverImport finishes an import killed past its commit point and
// removes the staging folders of killed imports (package share: the whole
// index or nothing), under the lock, before the settings are used and the
// list is read: a finished import changed both.
func (r *run) recoverImport() error {
	done := false
	err := share.Recover(r.ws, func(line string) {
		done = true
		r.logf(Info, "%s", line)
	})
	if err != nil || !done {
		return err
	}
	if s, _ := r.ws.LoadSettings(); s != nil {
		s.SearchExcludes, s.Ignored = r.opt.Settings.SearchExcludes, r.opt.Settings.Ignored
		r.opt.Settings = s
	}
	return nil
}

// dropRemovedIndexes decides what becomes of the indexes no root names:
// those the user removed (settings' Removed: fumibako folder remove, the
// web UI's confirmed 削除; removeDroppedFolders) are deleted once the run
// is confirmed (freeRemoved; the confirmation lists them as 削除予定), and
// every other one is kept: its registration was lost (a broken settings
// file) or edited away by hand, which must never cost an index (issue 15),
// or it is a received index (indexSources, issue 30), searchable but not
// crawled. A kept index keeps its folder line and rows (keepOrphans) and
// stays searchable; one that is not received is reported each run until
// it is restored or removed.
func (r *run) dropRemovedIndexes() {
	s := r.opt.Settings
	paths := map[string]string{}
	names := map[string]string{}
	for _, f := range append(append([]ingestlist.Folder(nil), r.prev.Folders...), r.prev.LegacyLines...) {
		if f.Name != "" {
			paths[workspace.FoldKey(f.Name)] = f.Path
			names[workspace.FoldKey(f.Name)] = f.Name
		}
	}
	for _, row := range r.prev.Rows {
		n := row.IndexName()
		if _, ok := names[workspace.FoldKey(n)]; !ok {
			names[workspace.FoldKey(n)] = n
		}
	}
	for _, n := range contentIndexes(r.ws) {
		if _, ok := names[workspace.FoldKey(n)]; !ok {
			names[workspace.FoldKey(n)] = n
		}
	}
	for _, rm := range s.Removed {
		k := workspace.FoldKey(rm.Name)
		if !s.IsRemoved(rm.Name) || !workspace.TestPlainFolderName(rm.Name) {
			continue
		}
		delete(names, k) // its rows and folder line go with the rewrite
		if _, err := os.Stat(filepath.Join(r.ws.ContentRoot(), rm.Name)); errors.Is(err, os.ErrNotExist) {
			continue
		}
		path := rm.Path
		if path == "" {
			path = paths[k]
		}
		r.toFree = append(r.toFree, workspace.Root{Name: rm.Name, Path: path})
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		if _, _, ok := s.Root(names[k]); !ok && workspace.TestPlainFolderName(names[k]) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		name, path := names[k], paths[k]
		r.orphans = append(r.orphans, ingestlist.Folder{Name: name, Path: path})
		if _, received := s.Source(name); received {
			continue // searchable, not crawled: nothing to report
		}
		shown := path
		if shown == "" {
			shown = msgOrphanNoPath
		}
		r.logf(Warn, msgOrphanKept, name, shown, name)
	}
}

// freeRemoved deletes the indexes of removed roots that dropRemovedIndexes
// found, once the run goes ahead (after its confirmation): the folder
// under store/content and the summary. Their rows go with the list's
// rewrite, which follows.
func (r *run) freeRemoved() {
	for _, rm := range r.toFree {
		dir := filepath.Join(r.ws.ContentRoot(), rm.Name)
		if err := format.RemoveIndexTree(dir); err != nil {
			r.logf(Warn, "    インデックス「%s」を削除できませんでした: %v", rm.Name, err)
			continue
		}
		summary.Remove(r.ws.ContentRoot(), rm.Name)
		r.logf(Info, msgDroppedIndex, rm.Path)
		r.sum.Freed = append(r.sum.Freed, rm.Name)
	}
}

// HasRemovedIndexes reports whether an index the user removed is still on
// disk: an indexing run then has work to do even with no root left (it
// frees it), and folder remove --now has something to free.
func HasRemovedIndexes(ws *workspace.Workspace, s *workspace.Settings) bool {
	for _, rm := range s.Removed {
		if !s.IsRemoved(rm.Name) || !workspace.TestPlainFolderName(rm.Name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(ws.ContentRoot(), rm.Name)); err == nil {
			return true
		}
	}
	return false
}

// keepOrphans carries the folder lines and rows of the indexes that
// dropRemovedIndexes kept into the rewritten list.
func (r *run) keepOrphans() {
	for _, o := range r.orphans {
		if o.Path != "" {
			r.folders = append(r.folders, o)
		}
		r.keepRows(o.Name)
	}
}

// rebuild converts or removes a folder's body index of another version
// and says so in the log.
func (r *run) rebuild(folder string) {
	if !r.rebuilding {
		r.logf(Info, msgRebuilding)
		r.rebuilding = true
	}
	err := r.opt.Body.Rebuild(content.Dir(r.ws.ContentRoot(), folder))
	var lost *bodyindex.LostError
	switch {
	case err == nil:
		// Converted from its own text: expected after an upgrade, so
		// the log's, not a warning on the screen for every folder.
		r.logf(Info, bodyindex.MsgRebuilt, folder)
		crashPoint("after-rebuild")
	case errors.As(err, &lost):
		// An index whose manifest cannot be read does not say which files
		// it held: the ingest list's rows of the folder do (issue 32: it
		// said 0 件 while its file was ingested again).
		n := len(lost.Files)
		if n == 0 {
			n = r.rowsIn(folder)
		}
		r.logf(Warn, bodyindex.MsgRebuildDropped, n, folder)
	default:
		r.logf(Warn, msgPublishFail, err)
	}
}

// rowsIn counts the rows of the previous ingest list whose file lies
// directly in folder (relative to the content root, `\` separated).
func (r *run) rowsIn(folder string) int {
	if r.prev == nil {
		return 0
	}
	k, n := workspace.FoldKey(folder), 0
	for _, row := range r.prev.Rows {
		if i := strings.LastIndexByte(row.RelPath, '\\'); i > 0 && workspace.FoldKey(row.RelPath[:i]) == k {
			n++
		}
	}
	return n
}

// publish publishes one folder's body index; it logs and returns false on
// a workspace fault (the folder stays unpublished and is carried to the
// next run). A folder whose publish fails otherwise is set aside.
func (r *run) publish(folder string) bool {
	r.beginPublish(folder)
	return r.published(folder, publishDir(r.opt.Body, r.ws.ContentRoot(), folder, r.removals[workspace.FoldKey(folder)], r.trash, r.freshOf(folder)))
}

// trashBody is a BodyIndex that can move the per-file folders it merged
// into a content.Trash instead of deleting them (bodyindex.Store).
type trashBody interface {
	PublishTrash(dir string, removed []string, trash *content.Trash) error
}

// publishDir publishes a folder's body index with its per-file folders
// and its batch records fresh (any goroutine: it touches only that
// folder, the trash, which locks, and fresh's Load, which reads the batch
// file only).
func publishDir(body BodyIndex, contentRoot, folder string, removed []string, trash *content.Trash, fresh []bodyindex.Fresh) error {
	crashPublishing(folder)
	return publishFolder(body, content.Dir(contentRoot, folder), removed, trash, fresh)
}

// publishFolder is publishDir of the folder dir, without its crash hook.
func publishFolder(body BodyIndex, dir string, removed []string, trash *content.Trash, fresh []bodyindex.Fresh) error {
	if fb, ok := body.(freshPublisher); ok && len(fresh) > 0 {
		return fb.PublishFresh(dir, removed, trash, fresh)
	}
	if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
		// Nothing was ever stored for this folder (every file in it failed,
		// or its index was deleted by hand): nothing to publish or remove.
		return nil
	}
	if tb, ok := body.(trashBody); ok && trash != nil {
		return tb.PublishTrash(dir, removed, trash)
	}
	return body.Publish(dir, removed)
}

// published completes the publish of a folder on the coordinator: an index
// of another version is rebuilt and published again, a file left out is
// logged, a failure logged (false: the folder stays unpublished and is
// carried to the next run); on success 出 is queued and the folder's
// removals are cleared.
func (r *run) published(folder string, err error) bool {
	k := workspace.FoldKey(folder)
	dir := content.Dir(r.ws.ContentRoot(), folder)
	var rebuild *format.RebuildError
	if errors.As(err, &rebuild) {
		r.rebuild(folder)
		err = publishFolder(r.opt.Body, dir, r.removals[k], nil, r.freshOf(folder))
	}
	// The publish came back: a kill from here on is no death in it
	// (poison.go), whatever it gave.
	r.cameBack(folder)
	var lost *bodyindex.LostError
	if errors.As(err, &lost) {
		// Committed without the files whose text was unreadable; the next
		// run finds their index lost and ingests them again.
		r.logf(Warn, msgLeftOut, folder, strings.Join(lost.Files, "、"))
		err = nil
	}
	if err != nil {
		if r.noteFault(err) {
			r.logf(Warn, msgPublishFault, r.fault.Path)
			return false
		}
		r.setAsideFailed(folder, err)
		return true
	}
	crashPoint("after-publish")
	r.forgetBatch(folder)
	r.endPublish(folder)
	delete(r.removals, k)
	delete(r.toPublish, k)
	if r.journal != nil {
		// 出 with the next commit, after the rows of the folder's files
		// (commit.go); the body index itself is durable already.
		r.queuePublished(folder)
	}
	r.dropPendingRemove(folder)
	return true
}

// dropPendingRemove takes a published (or set aside) folder's removals out
// of store/pending_remove.tsv; with no such file, it reads nothing (a
// failing open and stat per folder published, issue 35).
func (r *run) dropPendingRemove(folder string) {
	if r.noPendingRemove {
		return
	}
	if err := journal.DropPublished(r.ws.PendingRemove(), folder); err != nil && !r.noteFault(err) {
		r.logf(Warn, msgPublishFail, err)
	}
}
