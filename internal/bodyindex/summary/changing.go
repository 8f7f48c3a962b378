package summary

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fumibako/fumibako/internal/workspace"
)

// # Changing marker (.fumibako-changing.<index>)
//
// A summary is only worth its small read if a search can believe it
// without checking each folder: stating every folder of a 10 GB index
// (4,000 folders) costs a search more than the search, cold most of all
// (each stat reads a directory block and an inode from the disk). So a
// search trusts every entry of the summary as it is unless the index is
// marked as changing: an empty file .fumibako-changing.<index> in the
// content root, beside the summary. While it exists, a search checks each
// folder's modification time as before (summary.go).
//
// Rules (a change is a publish, a rebuild, a per-file folder swapped in, a
// folder created or removed under the index folder):
//
//   - The marker exists, durably (file and content root fsynced), before
//     the first change to an index whose summary exists. MarkChanging does
//     it; the indexer calls it for every index at the start of a run, and
//     Publish and Rebuild call it themselves (BeginChange), so that a
//     change no run announced still invalidates the summary.
//   - Write removes the marker only after the new summary is
//     committed (or the one on disk was found fresh), and holds changeMu
//     while it lists the folders, so that no publish of this process runs
//     between its listing and the removal.
//   - A crash between the two leaves the marker: searches check folder
//     times until the next run writes the summary.
//
// A marker that cannot be written makes MarkChanging remove the summary
// instead (searches then list the folders themselves).
const changingPrefix = ".fumibako-changing."

// changeMu orders publishes (read side, any number at once) against
// Write (write side).
var changeMu sync.RWMutex

// ChangingPath returns where the changing marker of index lives.
func ChangingPath(contentRoot, index string) string {
	return filepath.Join(contentRoot, changingPrefix+index)
}

// Changing reports whether index is marked as changing.
func Changing(contentRoot, index string) bool {
	_, err := os.Lstat(ChangingPath(contentRoot, index))
	return err == nil
}

// MarkChanging marks index as changing before its folders change (see
// above). It does nothing when the index has no summary or is marked
// already.
func MarkChanging(contentRoot, index string) error {
	if _, err := os.Lstat(Path(contentRoot, index)); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if Changing(contentRoot, index) {
		return nil
	}
	if err := workspace.WriteFileAtomic(ChangingPath(contentRoot, index), nil); err != nil {
		// The summary must not be believed through the change: without
		// it searches list the folders themselves.
		if rerr := Remove(contentRoot, index); rerr != nil {
			return err
		}
	}
	return nil
}

// clearChanging removes the marker once the summary describes the index.
func clearChanging(contentRoot, index string) {
	workspace.Remove(ChangingPath(contentRoot, index))
}

// BeginChange marks the index that the folder dir belongs to, found by
// walking up from dir to the folder beside which its summary lies. Publish
// and Rebuild call it before they change dir, holding changeMu's read
// side until they return (the returned func releases it).
func BeginChange(dir string) func() {
	changeMu.RLock()
	dir = filepath.Clean(dir)
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		name := filepath.Base(dir)
		if !strings.HasPrefix(name, ".") {
			if _, err := os.Lstat(Path(parent, name)); err == nil {
				MarkChanging(parent, name)
				break
			}
		}
		dir = parent
	}
	return changeMu.RUnlock
}

// Move moves the summary of index old to index new (a renamed
// index: the summary names no index inside). One of an index marked as
// changing is removed instead, as is one that cannot be moved: searches
// of the index list its folders until the next run writes it.
func Move(contentRoot, old, new string) {
	if Changing(contentRoot, old) || workspace.Rename(Path(contentRoot, old), Path(contentRoot, new)) != nil {
		Remove(contentRoot, old)
	}
}
