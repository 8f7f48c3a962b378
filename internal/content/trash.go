package content

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// A Trash recycles published per-file folders (issue 21). On ext4 without
// a journal, a new inode is searched for past every inode deleted in the
// last minutes, so that a build, which created a per-file folder and its
// files for every source file and deleted them once their folder was
// published, spent a tenth of its time in the kernel's recently_deleted
// (and as much again deleting): 20,000 folders of 3 files created and
// deleted took 17–22 s on the 2-core machine, 2 s when none was deleted.
//
// Remove takes a per-file folder out of the content tree by renaming it
// into the trash folder (whole, as RemoveFileFolder does: a kill never
// leaves a per-file folder missing some of its TSVs), and Reuse renames a
// folder of the trash to a worker's staging path, where WriteStage writes
// the next file's TSVs over its files: no inode is created or deleted.
// The trash lives in the run's scratch folder (tmp/<host>-<pid>), which
// the run deletes at its end and the next start deletes after a kill.
// Remove and Reuse may be called from several goroutines.
type Trash struct {
	dir  string
	mu   sync.Mutex
	free []string // folders in the trash, ready for Reuse
	n    int      // names handed out so far
	made bool     // dir exists
}

// NewTrash returns a trash in dir (created at the first Remove).
func NewTrash(dir string) *Trash { return &Trash{dir: dir} }

// Remove takes the per-file folder dir out of the content tree: into the
// trash, or, where the rename is refused (another file system, a file of
// it open on Windows) or t is nil, deleted by RemoveFileFolder.
func (t *Trash) Remove(dir string) error {
	if t == nil {
		return RemoveFileFolder(dir)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.made {
		if err := workspace.MkdirAll(t.dir); err != nil {
			return RemoveFileFolder(dir)
		}
		t.made = true
	}
	t.n++
	dst := filepath.Join(t.dir, strconv.Itoa(t.n))
	if err := workspace.RenameOnce(dir, dst); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, serr := os.Lstat(dir); errors.Is(serr, os.ErrNotExist) {
				return nil
			}
		}
		return RemoveFileFolder(dir)
	}
	t.free = append(t.free, dst)
	return nil
}

// Reuse renames a folder of the trash to stage (which must not exist; its
// parent is created) and reports whether it did.
func (t *Trash) Reuse(stage string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.free) > 0 {
		src := t.free[len(t.free)-1]
		t.free = t.free[:len(t.free)-1]
		err := workspace.RenameOnce(src, stage)
		if errors.Is(err, os.ErrNotExist) {
			if workspace.MkdirAll(filepath.Dir(stage)) == nil {
				err = workspace.RenameOnce(src, stage)
			}
		}
		if err == nil {
			return true
		}
		workspace.RemoveAll(src)
	}
	return false
}

// WriteStage writes the per-file folder of one source file into dir, a
// staging folder that is new or, when recycled, a recycled per-file folder
// (Trash.Reuse): its places as WriteFolder does, with src, when set, as
// the source line of .places.
// The files of a recycled folder are written over in place; those the new
// set does not have are deleted, and the folder is then fsynced so that
// none comes back after a crash. A new folder is created, not listed (one
// listing and no failing probe per small file, issue 35); a dir that
// exists after all is listed as a recycled one. It returns the number of
// TSVs written.
func WriteStage(dir string, recycled bool, places []extract.Place, src *Source) (int, error) {
	var before []os.DirEntry
	var err error
	if !recycled {
		err = workspace.Mkdir(dir)
		if errors.Is(err, os.ErrNotExist) {
			err = workspace.MkdirAll(dir)
		}
	}
	if recycled || errors.Is(err, os.ErrExist) {
		if before, err = os.ReadDir(dir); err != nil {
			return 0, fmt.Errorf("content: list %s: %w", dir, err)
		}
	} else if err != nil {
		return 0, fmt.Errorf("content: create %s: %w", dir, err)
	}
	n, written, err := writeFolder(dir, places, src)
	if err != nil {
		return 0, err
	}
	stale := false
	for _, e := range before {
		if !written[e.Name()] {
			if err := workspace.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return 0, fmt.Errorf("content: remove %s: %w", filepath.Join(dir, e.Name()), err)
			}
			stale = true
		}
	}
	if stale {
		if err := workspace.SyncDir(dir); err != nil {
			return 0, err
		}
	}
	return n, nil
}
