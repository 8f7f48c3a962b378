package bodyindex

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// LegacyFile is one file read from an index of an older format version.
type LegacyFile struct {
	Name   string
	Places []extract.Place
}

// legacyReaders reads the files of a folder whose index has an older
// format version, by version. When format.Version is raised, the reader of
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
var legacyFolders = map[int]func(dir string) (*format.Folder, error){
	2: func(dir string) (*format.Folder, error) { return format.OpenLegacy(dir, 2) },
	3: func(dir string) (*format.Folder, error) { return format.OpenLegacy(dir, 3) },
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
	defer summary.BeginChange(dir)()
	_, err := format.ReadManifest(dir)
	var rb *format.RebuildError
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
	f, err := format.OpenFolder(dir)
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
func reencode(dir string, f *format.Folder) error {
	items := make([]item, len(f.Entries()))
	for i, fe := range f.Entries() {
		items[i] = item{name: fe.Name, old: i, entry: fe}
	}
	lost := &LostError{Dir: dir}
	if err := writeItems(dir, f, items, lost, false); err != nil {
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
	if err := writeItems(dir, nil, items, lost, false); err != nil {
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
	if err := workspace.Remove(filepath.Join(dir, format.ManifestName)); err != nil {
		return err
	}
	format.ForgetDir(dir, nil)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), format.ManifestName) {
			format.RemoveOrDefer(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
