package format

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/workspace"
)

// RemoveIndexTree deletes the folder of a removed index. Files that a
// search has mapped are moved out of it, next to it, under "to delete"
// names (`.delete-<index>.<n>.<name>`) for the next start, so the folder
// goes at once; it fails only when something could neither be removed nor
// moved.
func RemoveIndexTree(dir string) error {
	parent, index := filepath.Split(filepath.Clean(dir))
	var dirs []string
	var first error
	n := 0
	werr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			if first == nil {
				first = err
			}
		case d.IsDir():
			dirs = append(dirs, path)
			ForgetDir(path, nil) // this process's mappings go when released
		default:
			n++
			to := filepath.Join(parent, content.DeferredPrefix+index+"."+strconv.Itoa(n)+"."+d.Name())
			if err := removeOrMove(path, to); err != nil && first == nil {
				first = err
			}
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := workspace.Remove(dirs[i]); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	if errors.Is(werr, fs.ErrNotExist) || errors.Is(first, fs.ErrNotExist) && len(dirs) == 0 {
		return nil
	}
	return first
}
