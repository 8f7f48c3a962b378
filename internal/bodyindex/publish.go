package bodyindex

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// LostError reports files that a publish had to leave out of the body
// index because their text could not be read (a damaged per-file folder,
// or a damaged part of the old index). The publish itself succeeded and is
// committed; the indexer should ingest these files again (they are missing
// from Files, so the next run sees their index as lost).
type LostError struct {
	Dir   string
	Files []string
	Cause error // the first cause
}

func (e *LostError) Error() string {
	return fmt.Sprintf("bodyindex: %s: %d file(s) left out of the body index (%s): %v", e.Dir, len(e.Files), strings.Join(e.Files, ", "), e.Cause)
}

func (e *LostError) Unwrap() error { return e.Cause }

// fileKey orders files and compares their identity: the seed compares file
// names ignoring case.
func fileKey(name string) string { return workspace.FoldKey(name) }

func compareFiles(a, b string) int {
	if c := strings.Compare(fileKey(a), fileKey(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// Publish merges every per-file folder directly inside dir (a folder under
// work/store/content) into dir's body index, replacing those files'
// previous entries; drops the files named in removed (file names without
// folder, compared ignoring case; a per-file folder present for the same
// name wins); keeps every other file; commits the new index atomically and
// then deletes the merged per-file folders. Sub-folders of dir are other
// folders and are not touched. A folder left with no files loses its index
// files. Publishing again after a crash anywhere in between gives the same
// bytes.
//
// An old index that this build cannot read gives a *RebuildError and
// nothing is changed: call Rebuild, then Publish again. Files whose text
// could not be read are left out and reported by a *LostError after the
// commit.
func Publish(dir string, removed []string) error { return PublishTrash(dir, removed, nil) }

// PublishTrash is Publish that moves the merged per-file folders into
// trash (content.Trash.Remove: a worker writes over them later) instead of
// deleting them; a nil trash deletes them.
func PublishTrash(dir string, removed []string, trash *content.Trash) error {
	return PublishFresh(dir, removed, trash, nil)
}

// Fresh is a file's new text handed to a publish from outside dir's
// per-file folders: a record of the coordinator's batch file (issue 35,
// content/batch.go). It replaces a per-file folder of the same name.
type Fresh struct {
	Name    string // the file's name in dir
	ModTime int64  // crawled modification time, Unix nanoseconds (0: unknown)
	Size    int64
	// Load returns the file's places as content.NormalizePlaces gives
	// them. It is called once to count them and, when the publish keeps
	// no more text in memory (keepText), once more to encode them.
	Load func() ([]extract.Place, error)
}

// PublishFresh is PublishTrash with the files of fresh merged too, as if
// each had a per-file folder in dir (a folder that does not exist yet is
// created). A file whose Load fails is left out and reported by a
// *LostError, as a damaged per-file folder is.
func PublishFresh(dir string, removed []string, trash *content.Trash, fresh []Fresh) error {
	created := false
	if len(fresh) > 0 {
		var err error
		if created, err = makeFolder(dir); err != nil {
			return err
		}
	}
	defer summary.BeginChange(dir)()
	var old *format.Folder
	files, freshDirs, broken := map[string]item{}, []string(nil), []brokenFolder(nil)
	kept := int64(0)
	// A folder this publish created holds no index, per-file folder or
	// part: nothing to open, list or check (issue 35: a new folder of a
	// first build cost a failing open, a listing and a failing stat per
	// part).
	if !created {
		var err error
		if old, err = format.OpenFolder(dir); err != nil {
			return err
		}
		if old != nil {
			defer old.Close()
		}
		if files, freshDirs, broken, err = readFileFolders(dir, &kept); err != nil {
			return err
		}
	}
	broken = append(broken, addFresh(files, fresh, &kept)...)
	return publishItems(dir, old, files, freshDirs, broken, removed, trash, created)
}

// publishItems is the rest of PublishFresh once the fresh files are read;
// empty says that dir was created by this publish and holds nothing yet.
func publishItems(dir string, old *format.Folder, fresh map[string]item, freshDirs []string, broken []brokenFolder, removed []string, trash *content.Trash, empty bool) error {
	lost := &LostError{Dir: dir}
	drop := map[string]bool{}
	for _, r := range removed {
		drop[fileKey(r)] = true
	}
	for _, b := range broken {
		drop[fileKey(b.name)] = true
		lost.Files = append(lost.Files, b.name)
		if lost.Cause == nil {
			lost.Cause = b.err
		}
	}
	for k := range fresh {
		delete(drop, k)
	}

	// The merged file list, sorted by name: fresh files and kept old ones.
	var items []item
	for _, f := range fresh {
		items = append(items, f)
	}
	if old != nil {
		for i, f := range old.Entries() {
			k := fileKey(f.Name)
			if _, replaced := fresh[k]; replaced || drop[k] {
				continue
			}
			items = append(items, item{name: f.Name, old: i, entry: f})
		}
	}
	if err := writeItems(dir, old, items, lost, empty); err != nil {
		return err
	}
	for _, d := range freshDirs {
		if err := trash.Remove(d); err != nil {
			return err
		}
	}
	for _, b := range broken {
		if b.dir == "" {
			continue // a batch record: nothing on disk to remove
		}
		if err := content.RemoveFileFolder(b.dir); err != nil {
			return err
		}
	}
	if len(lost.Files) > 0 {
		slices.SortFunc(lost.Files, compareFiles)
		return lost
	}
	return nil
}

// writeItems writes the body index of dir holding items (any order):
// parts for chunks that changed, then the manifest (the commit), then the
// removal of stale parts. Old files are read from old, which it closes.
// Files whose old text is unreadable are left out and added to lost. In
// an empty dir (made by this publish) no part can be there already and
// nothing is stale.
func writeItems(dir string, old *format.Folder, items []item, lost *LostError, empty bool) error {
	slices.SortFunc(items, func(a, b item) int { return compareFiles(a.name, b.name) })
	entries := make([]format.FileEntry, len(items))
	for i, it := range items {
		entries[i] = it.entry
	}

	var refs []format.PartRef
	wrote := false
	write := writePart
	if empty {
		write = writeNewPart
	}
	enc := format.NewEncoder(func(p format.BuiltPart) error {
		if err := write(dir, p); err != nil {
			return err
		}
		wrote = true
		refs = append(refs, format.PartRef{ID: p.ID, Size: int64(len(p.Data)), FirstFile: p.FirstFile, FirstLine: p.FirstLine, LastFile: p.LastFile, EndLine: p.EndLine})
		return nil
	})
	defer enc.Release()
	var unreadable []int
	for _, c := range planChunks(entries) {
		if reused := reuseParts(old, items, c); reused != nil {
			refs = append(refs, reused...)
			continue
		}
		texts, gone := chunkTexts(old, items, c, lost)
		unreadable = append(unreadable, gone...)
		if len(texts) == 0 {
			continue
		}
		enc.Encode(texts)
		if enc.Err != nil {
			return enc.Err
		}
		for _, ft := range texts {
			// An old file's long lines of an earlier version were split
			// while encoded: its row counts the lines as written.
			n := enc.Counts[ft.Index]
			entries[ft.Index].FoldedBytes = enc.Folded[ft.Index]
			entries[ft.Index].Lines, entries[ft.Index].TextBytes = n.Lines, n.Text
		}
	}
	if len(unreadable) > 0 {
		refs, entries = dropEntries(refs, entries, unreadable)
	}
	if wrote {
		if err := workspace.SyncDir(dir); err != nil {
			return err
		}
	}
	if old != nil {
		old.Close()
	}

	// Commit: the manifest rename (or its removal) switches readers over.
	mpath := filepath.Join(dir, format.ManifestName)
	if len(entries) == 0 {
		if err := workspace.Remove(mpath); err != nil {
			return err
		}
		if err := workspace.SyncDir(dir); err != nil {
			return err
		}
	} else if err := commitFile(mpath, format.EncodeManifest(refs, entries)); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, r := range refs {
		keep[format.PartName(r.ID)] = true
	}
	format.ForgetDir(dir, keep)
	if !empty {
		removeStale(dir, keep)
	}
	format.DropUnused(dir)
	return nil
}

// chunkTexts returns what the encoder is given for the files of chunk c:
// an old file's text read from old, a fresh one's as kept in memory, read
// again (a batch record beyond keepText) or streamed from its per-file
// folder. A file whose text cannot be read is left out, added to lost and
// returned in unreadable.
func chunkTexts(old *format.Folder, items []item, c []int, lost *LostError) (texts []format.FileText, unreadable []int) {
	for _, i := range c {
		if items[i].dir != "" {
			// Streamed from its per-file folder while encoded.
			texts = append(texts, format.FileText{Name: items[i].name, Index: i, Dir: items[i].dir, Want: items[i].entry})
			continue
		}
		places, err := items[i].places, error(nil)
		if items[i].old >= 0 {
			places, err = old.Places(items[i].old)
		} else if places == nil && items[i].load != nil {
			// A batch record not kept in memory (keepText).
			places, err = items[i].load()
			places = nonEmpty(places)
		}
		if err != nil {
			unreadable = append(unreadable, i)
			lost.Files = append(lost.Files, items[i].name)
			if lost.Cause == nil {
				lost.Cause = err
			}
			continue
		}
		texts = append(texts, format.FileText{Name: items[i].name, Index: i, Places: places})
	}
	return texts, unreadable
}

// item is one file of the merged list: fresh (read from its per-file
// folder dir, old -1) or kept from the old index (old ≥ 0).
type item struct {
	name   string
	dir    string          // per-file folder of a fresh file whose text is streamed when encoded
	places []extract.Place // a fresh file's text, when kept in memory (dir "")
	// load reads a fresh file's batch record again when its text was not
	// kept in memory (places nil, dir "").
	load  func() ([]extract.Place, error)
	old   int
	entry format.FileEntry
}

// brokenFolder is a per-file folder that could not be read.
type brokenFolder struct {
	name, dir string
	err       error
}

// nonEmpty drops places without lines: they have no text to index.
func nonEmpty(places []extract.Place) []extract.Place {
	out := places[:0:0]
	for _, p := range places {
		if len(p.Lines) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// entryOf computes the file-table row of a fresh file.
func entryOf(name string, places []extract.Place) format.FileEntry {
	e := format.FileEntry{Name: name, Places: len(places)}
	for _, p := range places {
		e.Lines += len(p.Lines)
		for _, l := range p.Lines {
			e.TextBytes += int64(len(l)) + 1
		}
	}
	// FoldedBytes is filled in by the encoder.
	return e
}

// anchor reports whether a chunk that already holds format.ChunkMin bytes ends
// before this file. It depends on the name only, so boundaries stay put
// when other files change.
func anchor(name string) bool {
	h := fnv.New32a()
	h.Write([]byte(fileKey(name)))
	return h.Sum32()&format.ChunkAnchor == 0
}

// planChunks groups the files with text into chunks of whole files.
func planChunks(entries []format.FileEntry) [][]int {
	var chunks [][]int
	var chunk []int
	size := int64(0)
	for i, e := range entries {
		if e.Lines == 0 {
			continue
		}
		if len(chunk) > 0 && (size+e.TextBytes > int64(format.ChunkMax) || (size >= int64(format.ChunkMin) && anchor(e.Name))) {
			chunks = append(chunks, chunk)
			chunk, size = nil, 0
		}
		chunk = append(chunk, i)
		size += e.TextBytes
	}
	if len(chunk) > 0 {
		chunks = append(chunks, chunk)
	}
	return chunks
}

// reuseParts returns the old parts that hold exactly the files of chunk
// c, unchanged, renumbered to the new file table; nil when the chunk must
// be encoded. Encoding the same files again would give the same bytes.
func reuseParts(old *format.Folder, items []item, c []int) []format.PartRef {
	if old == nil || old.Legacy() {
		return nil
	}
	for _, i := range c {
		if items[i].old < 0 {
			return nil
		}
	}
	first, last := items[c[0]].old, items[c[len(c)-1]].old
	// The old files with text between first and last must be the chunk.
	var between []int
	for j := first; j <= last; j++ {
		if old.Entries()[j].Lines > 0 {
			between = append(between, j)
		}
	}
	if len(between) != len(c) {
		return nil
	}
	for k, i := range c {
		if items[i].old != between[k] {
			return nil
		}
	}
	newIndex := map[int]int{}
	for _, i := range c {
		newIndex[items[i].old] = i
	}
	var out []format.PartRef
	for pi, r := range old.Refs() {
		if r.LastFile < first || r.FirstFile > last {
			continue
		}
		if old.Part(pi) == nil {
			return nil
		}
		if len(out) == 0 && (r.FirstFile != first || r.FirstLine != 0) {
			return nil
		}
		if r.FirstFile < first || r.LastFile > last {
			return nil
		}
		r.FirstFile, r.LastFile = newIndex[r.FirstFile], newIndex[r.LastFile]
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	if end := out[len(out)-1]; end.LastFile != c[len(c)-1] || end.EndLine != old.Entries()[last].Lines {
		return nil
	}
	return out
}

// dropEntries removes files whose text was unreadable from the file table
// and renumbers the parts (which hold none of their lines).
func dropEntries(refs []format.PartRef, entries []format.FileEntry, gone []int) ([]format.PartRef, []format.FileEntry) {
	isGone := map[int]bool{}
	for _, g := range gone {
		isGone[g] = true
	}
	newIndex := make([]int, len(entries))
	var kept []format.FileEntry
	for i, e := range entries {
		newIndex[i] = len(kept)
		if !isGone[i] {
			kept = append(kept, e)
		}
	}
	for i := range refs {
		refs[i].FirstFile = newIndex[refs[i].FirstFile]
		refs[i].LastFile = newIndex[refs[i].LastFile]
	}
	return refs, kept
}
