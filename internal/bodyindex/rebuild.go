package bodyindex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// LegacyFile is one file read from an index of an older format version.
type LegacyFile struct {
	Name   string
	Places []extract.Place
}

// legacyReaders reads the files of a folder whose index has an older
// format version, by version. When FormatVersion is raised, the reader of
// the version it replaces is added here, so that Rebuild converts such
// folders in place from their own text instead of having every file
// ingested again (or, when the old layout is close enough to parse, to
// legacyFolders). Version 1 has no reader: Rebuild drops such indexes
// (their files are ingested again).
var legacyReaders = map[int]func(dir string) ([]LegacyFile, error){}

// legacyFolders opens, by version, a folder whose index has an older
// format version that this build still parses; Rebuild re-encodes it in
// the current format from its own parts, chunk by chunk (so a large folder
// is never all in memory), keeping each file's row (time and size as
// indexed). Version 2 differs from 4 in its gram masks, which are always
// 8 bytes, and in its folding; version 3 only in its folding. The original
// text is kept as patches over the folded text, which need no folding to
// apply, so both read back exactly and are folded again as they are
// written.
var legacyFolders = map[int]func(dir string) (*Folder, error){
	2: func(dir string) (*Folder, error) { return openLegacy(dir, 2) },
	3: func(dir string) (*Folder, error) { return openLegacy(dir, 3) },
}

// openLegacy opens a folder of format version v for Rebuild. A part that
// cannot be read is kept as an error: its files are reported lost.
func openLegacy(dir string, v uint32) (*Folder, error) {
	path := filepath.Join(dir, ManifestName)
	data, err := readSmall(path)
	if err != nil {
		return nil, err
	}
	m, err := parseManifestVersion(path, data, v)
	if err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir, files: m.files, refs: m.parts, legacy: true}
	for _, r := range m.parts {
		pp := filepath.Join(dir, partName(r.id))
		var p *Part
		data, unmap, _, err := mapFile(pp)
		if err == nil {
			f.unmaps = append(f.unmaps, unmap)
			p, err = parsePart(pp, data, v)
			if err == nil && int64(len(data)) != r.size {
				p, err = nil, &FormatError{Path: pp, What: fmt.Sprintf("size %d, manifest says %d", len(data), r.size)}
			}
		}
		f.parts = append(f.parts, p)
		f.errs = append(f.errs, err)
	}
	return f, nil
}

// Rebuild makes dir's body index readable by this build again. It does
// nothing for a folder without an index or with a current one. An index of
// an older version that this build can still read is converted in place
// (same files, same text). Any other index (unknown version, damaged
// manifest) is removed: its files are reported by a *LostError so that the
// indexer ingests them again; when even the file names are gone, Files is
// empty and the ingest-list check finds those files lost because Files no
// longer lists them. Per-file folders waiting in dir are left for Publish.
//
// The indexer calls it for every folder where Files or Publish returned a
// *RebuildError, and logs that the folder was rebuilt.
func Rebuild(dir string) error {
	defer markChanging(dir)()
	_, err := readManifest(dir)
	var rb *RebuildError
	if err == nil {
		return rewriteDamaged(dir)
	}
	if !errors.As(err, &rb) {
		return err
	}
	if open, ok := legacyFolders[rb.Version]; ok {
		old, lerr := open(dir)
		if lerr == nil {
			return reencode(dir, old)
		}
		rb.Cause = lerr
	}
	if read, ok := legacyReaders[rb.Version]; ok && rb.Version != 0 {
		files, lerr := read(dir)
		if lerr == nil {
			return convert(dir, files)
		}
		rb.Cause = lerr
	}
	if err := removeIndex(dir); err != nil {
		return err
	}
	names := slices.Clone(rb.Files)
	slices.SortFunc(names, compareFiles)
	return &LostError{Dir: dir, Files: names, Cause: rb}
}

// rewriteDamaged rewrites a current-version index of which some parts
// cannot be read: the files in those parts are left out (*LostError).
func rewriteDamaged(dir string) error {
	f, err := OpenFolder(dir)
	if err != nil || f == nil {
		return err
	}
	defer f.Close()
	damaged := false
	for i := 0; i < f.NumParts(); i++ {
		damaged = damaged || f.PartErr(i) != nil
	}
	if !damaged {
		return nil
	}
	return reencode(dir, f)
}

// reencode writes every file of f again as dir's body index (parts that
// can be reused are; f's unreadable files are left out, *LostError) and
// closes f.
func reencode(dir string, f *Folder) error {
	items := make([]item, len(f.files))
	for i, fe := range f.files {
		items[i] = item{name: fe.name, old: i, entry: fe}
	}
	lost := &LostError{Dir: dir}
	if err := writeItems(dir, f, items, lost); err != nil {
		return err
	}
	if len(lost.Files) > 0 {
		slices.SortFunc(lost.Files, compareFiles)
		return lost
	}
	return nil
}

// convert writes files as dir's body index in the current format.
func convert(dir string, files []LegacyFile) error {
	items := make([]item, 0, len(files))
	for _, f := range files {
		places := nonEmpty(f.Places)
		items = append(items, item{name: f.Name, places: places, old: -1, entry: entryOf(f.Name, places)})
	}
	lost := &LostError{Dir: dir}
	if err := writeItems(dir, nil, items, lost); err != nil {
		return err
	}
	if len(lost.Files) > 0 {
		return lost
	}
	return nil
}

// removeIndex deletes the manifest first (so readers stop at once), then
// every part and temporary file of dir's body index.
func removeIndex(dir string) error {
	if err := workspace.Remove(filepath.Join(dir, ManifestName)); err != nil {
		return err
	}
	forgetDir(dir, nil)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ManifestName) {
			removeOrDefer(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
