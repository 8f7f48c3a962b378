package bodyindex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/workspace"
)

// readFileFolders reads the per-file folders directly inside dir.
// kept counts the text kept in memory (readFileFolder).
func readFileFolders(dir string, kept *int64) (fresh map[string]item, dirs []string, broken []brokenFolder, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: read folder %s: %w", dir, err)
	}
	fresh = map[string]item{}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		it, ok, err := readFileFolder(e.Name(), sub, kept)
		if !ok {
			continue // a source subfolder
		}
		if err != nil {
			broken = append(broken, brokenFolder{name: e.Name(), dir: sub, err: err})
			continue
		}
		if prev, ok := fresh[fileKey(it.name)]; ok && compareFiles(prev.name, it.name) > 0 {
			// Two folders differing only in case: keep one, by name order.
			dirs = append(dirs, sub)
			continue
		}
		fresh[fileKey(it.name)] = it
		dirs = append(dirs, sub)
	}
	return fresh, dirs, broken, nil
}

// readFileFolder reads the per-file folder dir of the file name for its
// file-table row. The text stays in memory up to keepText bytes for the
// folder (kept counts them); beyond that, and for any file of more than
// streamText bytes, only the row is kept and the text is streamed from
// dir when its chunk is encoded (content.EachLine), so a folder's new
// text is never all in memory at once, and a large file's never is
// (issue 36: the coordinator's memory does not grow with a file). A large
// file is read twice, once to count and once to encode; small folders
// are read once.
// ok is false when dir is no per-file folder (it holds no .places).
func readFileFolder(name, dir string, kept *int64) (it item, ok bool, err error) {
	it = item{name: name, old: -1}
	f, ok, err := content.ReadFileFolder(dir, streamText)
	if !ok || err != nil {
		return it, ok, err
	}
	defer func() {
		if f.HasSource {
			it.entry.Mtime, it.entry.Size = f.Source.ModTime.UnixNano(), f.Source.Size
		}
	}()
	if f.Big {
		it.dir = dir
		it.entry, err = entryOfDir(name, dir)
		return it, true, err
	}
	it.places = nonEmpty(f.Places)
	it.entry = entryOf(name, it.places)
	if *kept += it.entry.TextBytes; *kept > keepText {
		it.places, it.dir = nil, dir
	}
	return it, true, nil
}

// keepText is how much new text a publish keeps in memory between reading
// the per-file folders and encoding them; streamText the most text of a
// file that is read into memory at all. Variables for tests.
var (
	keepText   = int64(64 << 20)
	streamText = int64(4 << 20)
)

// entryOfDir computes the file-table row of a fresh file from its
// per-file folder a line at a time, as entryOf does from its places.
func entryOfDir(name, dir string) (format.FileEntry, error) {
	e := format.FileEntry{Name: name}
	last := ""
	err := content.EachLine(dir, func(place, line string) error {
		if e.Lines == 0 || place != last {
			e.Places++
			last = place
		}
		e.Lines++
		e.TextBytes += int64(len(line)) + 1
		return nil
	})
	return e, err
}

// addFresh adds the files of a batch (PublishFresh) to fresh, replacing
// a per-file folder of the same name: within a run a file has one or the
// other, and across runs the start publishes what a run left before the
// next one ingests anything. The text is kept in memory up to keepText
// bytes for the folder, as readFileFolder keeps it; beyond that only the
// row is kept and Load is called again when the file is encoded.
func addFresh(fresh map[string]item, list []Fresh, kept *int64) (broken []brokenFolder) {
	for _, f := range list {
		places, err := f.Load()
		if err != nil {
			broken = append(broken, brokenFolder{name: f.Name, err: err})
			continue
		}
		places = nonEmpty(places)
		it := item{name: f.Name, old: -1, places: places, entry: entryOf(f.Name, places)}
		it.entry.Mtime, it.entry.Size = f.ModTime, f.Size
		if *kept += it.entry.TextBytes; *kept > keepText {
			it.places, it.load = nil, f.Load
		}
		fresh[fileKey(f.Name)] = it
	}
	return broken
}

// makeFolder creates dir for a publish of batch records (its files may
// never have had a per-file folder there) and fsyncs the folders that got
// a new entry, so the published index cannot vanish with its folder.
// created says that dir did not exist: nothing is in it yet. It makes one
// mkdir per folder it creates and none per one that exists (a stat of each
// ancestor first was three calls a folder, issue 35).
func makeFolder(dir string) (created bool, err error) {
	err = workspace.Mkdir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		parent := filepath.Dir(dir)
		if parent == dir {
			return false, fmt.Errorf("bodyindex: create %s: %w", dir, err)
		}
		if _, err := makeFolder(parent); err != nil {
			return false, err
		}
		err = workspace.Mkdir(dir)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("bodyindex: create %s: %w", dir, err)
	}
	return true, workspace.SyncDir(filepath.Dir(dir))
}
