package format

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Deferred deletion. Windows refuses to delete a file that a process has
// mapped (a search, or serve, reading the body index), but lets it be
// renamed (mapFile opens with FILE_SHARE_DELETE). A part or summary that
// cannot be removed is renamed in place to content.DeferredPrefix + its
// name, which no reader opens, and removed later: when the process that
// mapped it unmaps it (dropLocked), at the next publish of its folder
// (removeStale), or at the start of the next indexing run
// (content.RemoveLeftovers). The files of a removed index go next to its
// folder instead, so the folder goes at once. No space is ever leaked and
// the old name is free at once.

// RemoveFile is a fault seam: tests make it fail as Windows does while a
// file is mapped. It is os.Remove, not the retrying workspace.Remove: a
// mapped file stays undeletable until it is unmapped, so the deferral comes
// at once instead of after seconds of retries.
var RemoveFile = os.Remove

// RemoveOrDefer removes path, or when that fails renames it to a "to
// delete" name next to it. It fails only when neither works.
func RemoveOrDefer(path string) error {
	dir, base := filepath.Split(path)
	return removeOrMove(path, filepath.Join(dir, content.DeferredPrefix+base))
}

// removeOrMove removes path, or when that fails renames it to the "to
// delete" name to.
func removeOrMove(path, to string) error {
	err := RemoveFile(path)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, merr := MoveAway(path, to); merr != nil {
		return err
	}
	return nil
}

// MoveAway renames path to the "to delete" name to, numbered when an
// earlier deferral that is still mapped holds that name; it returns the
// name used.
func MoveAway(path, to string) (string, error) {
	name := to
	for n := 2; ; n++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) || RemoveFile(name) == nil {
			break
		}
		if n > 20 {
			return "", fmt.Errorf("bodyindex: no free name to delete %s later", path)
		}
		name = to + "." + strconv.Itoa(n)
	}
	return name, workspace.Rename(path, name)
}

// removeDeferredOf removes what deferrals of path left, once it may be
// unmapped: `.delete-<name>` and `.delete-<name>.<n>`; those still mapped
// elsewhere stay.
func removeDeferredOf(path string) {
	dir, base := filepath.Split(path)
	d := filepath.Join(dir, content.DeferredPrefix+base)
	for n := 1; n <= 20; n++ {
		name := d
		if n > 1 {
			name = d + "." + strconv.Itoa(n)
		}
		if errors.Is(RemoveFile(name), fs.ErrNotExist) {
			return
		}
	}
}

// IsDeferred reports a name given by RemoveOrDefer.
func IsDeferred(name string) bool { return strings.HasPrefix(name, content.DeferredPrefix) }
