package search

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Browsing the index without a query, for the front ends: the window of
// one place around a hit (the web UI's preview, reference/gui.md §4.6)
// and the folders of an index (its search-target tree, §4.2). Both read
// the published body index only, never a source file, and only what
// they show: a window is decoded from its own lines (issue 36).

// ErrOutside is the error for a path that would leave the content root.
var ErrOutside = errors.New("search: path outside the content root")

// PlaceLine is one line of a place: its number (an Excel sheet's row),
// its text, and whether it continues the line before it (a line cut at
// extract.LineMaxRunes).
type PlaceLine = format.PlaceLine

// PlaceWindow is the lines From..To of one place of one file.
type PlaceWindow struct {
	Lines []PlaceLine
	// Head is the place's first line when the window starts below it
	// (a sheet's header row), else nil.
	Head []PlaceLine
	// Total is the number of lines of the place.
	Total int
	// Sheet: the place is an Excel sheet's cells (not a shape or comment
	// place), laid out as a grid.
	Sheet bool
}

// ReadWindow reads the lines from..to (1-based, clamped to the place) of
// place in the file rel (an index path, `<index>\<path>`) under the
// content root. An error wrapping format.ErrNoPlace means the index
// holds no such file or place.
func ReadWindow(contentRoot, rel, place string, from, to int) (PlaceWindow, error) {
	dir := content.Dir(contentRoot, content.FolderOf(rel))
	if !workspace.IsWithin(dir, contentRoot) {
		return PlaceWindow{}, ErrOutside
	}
	from = max(from, 1)
	lines, total, err := format.ReadPlace(dir, content.BaseOf(rel), place, from, max(to, from))
	if err != nil {
		return PlaceWindow{}, err
	}
	w := PlaceWindow{Lines: lines, Total: total}
	if from > 1 {
		if w.Head, _, err = format.ReadPlace(dir, content.BaseOf(rel), place, 1, 1); err != nil {
			return PlaceWindow{}, err
		}
	}
	kind, _ := extract.KindOf(rel)
	_, obj := content.SplitKind(place)
	w.Sheet = kind == extract.KindExcel && obj == ""
	return w, nil
}

// Folder is one sub-folder of an index folder as the body index holds it.
type Folder struct {
	Name string
	// Files: the folder holds indexed files directly.
	Files bool
	// Subfolders: the folder has sub-folders of its own.
	Subfolders bool
}

// Folders lists the sub-folders of rel (an index name or index path)
// under the content root, by name ignoring case, and whether rel itself
// holds indexed files directly. Per-file folders waiting to be published
// are not folders of the tree.
func Folders(contentRoot, rel string) (folders []Folder, files bool, err error) {
	dir := content.Dir(contentRoot, rel)
	if !workspace.IsWithin(dir, contentRoot) {
		return nil, false, ErrOutside
	}
	folders = []Folder{}
	for _, name := range subfolders(dir) {
		sub := filepath.Join(dir, name)
		folders = append(folders, Folder{Name: name, Files: format.FolderHasIndex(sub), Subfolders: len(subfolders(sub)) > 0})
	}
	return folders, format.FolderHasIndex(dir), nil
}

// subfolders lists the source sub-folders of a content folder, by name
// ignoring case.
func subfolders(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() || strings.HasPrefix(n, ".") || content.IsFileFolder(filepath.Join(dir, n)) {
			continue
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(workspace.FoldKey(a), workspace.FoldKey(b)) })
	return out
}
