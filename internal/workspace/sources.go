package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Source returns the indexSources entry of the index name
// (case-insensitive).
func (s *Settings) Source(name string) (IndexSource, bool) {
	for _, e := range s.IndexSources {
		if FoldKey(e.Name) == FoldKey(name) {
			return e, true
		}
	}
	return IndexSource{}, false
}

// SetSource records path as the source folder of the index name, confirmed
// by the user (fumibako folder source, the web UI's ［このフォルダを使う］
// or a folder the files were found in; reference/search.md §9
// setIndexSourceFolder). The crawl root of a crawled index is not changed:
// the entry only says where its files are opened from.
func (s *Settings) SetSource(name, path string) error {
	if !TestStoredIndexName(name) {
		return refuse(msgNameIllegal, name)
	}
	if strings.TrimSpace(path) == "" {
		return refuse(msgNoPath)
	}
	for i, e := range s.IndexSources {
		if FoldKey(e.Name) == FoldKey(name) {
			s.IndexSources[i] = IndexSource{Name: e.Name, Path: path, Confirmed: true}
			return nil
		}
	}
	s.IndexSources = append(s.IndexSources, IndexSource{Name: name, Path: path, Confirmed: true})
	return nil
}

// dropSource forgets the indexSources entry of name: the index became a
// crawl root, whose path is then its source folder.
func (s *Settings) dropSource(name string) {
	s.IndexSources = slices.DeleteFunc(s.IndexSources, func(e IndexSource) bool { return FoldKey(e.Name) == FoldKey(name) })
}

// MoveRoot changes where a root's files are (the reference's path edit,
// renameIndex: a moved folder, a share reached through another drive
// letter or its UNC path): the index, its name and rows stay, and the
// next run finds the files it has unchanged, so nothing is ingested again
// (issue 30). The new path need not be reachable now (FolderWarning); it
// must not be a file, overlap another root or the workspace. An
// indexSources entry of the index goes: the root's path is where its
// files open from again.
func (s *Settings) MoveRoot(name, path, workspaceRoot string) (old Root, err error) {
	r, i, ok := s.Root(name)
	if !ok {
		return Root{}, refuse(msgNotFound, name)
	}
	if strings.TrimSpace(path) == "" {
		return Root{}, refuse(msgNoPath)
	}
	abs, err := filepath.Abs(strings.TrimSpace(path))
	if err != nil {
		return Root{}, &FolderError{Msg: fmt.Sprintf(msgPathMissing, path), Cause: err}
	}
	abs = realPath(abs)
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		return Root{}, refuse(msgNotFolder, abs)
	}
	ws := realPath(workspaceRoot)
	if IsWithin(abs, ws) || IsWithin(ws, abs) {
		return Root{}, refuse(msgInWorkspace, abs, workspaceRoot)
	}
	others := &Settings{Roots: append(append([]Root(nil), s.Roots[:i]...), s.Roots[i+1:]...)}
	if err := others.checkOverlap(abs); err != nil {
		return Root{}, err
	}
	s.Roots[i].Path = abs
	s.dropSource(r.Name)
	return r, nil
}
