package workspace

import (
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
