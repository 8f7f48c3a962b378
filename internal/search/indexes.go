package search

import (
	"os"
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Indexes lists what a search covers, the one list that the CLI and the
// web UI both search (issue 15): the registered roots in their order, then
// the index folders under contentRoot that no root names, by name (an
// index whose registration was lost or is unchecked and gone from the
// settings; it is kept until the user removes it), except those the user
// removed (settings' Removed), whose deletion is pending. Each carries its
// source folder (source.Lookup), the one place that resolves it for the
// hits' FullPath.
func Indexes(contentRoot string, s *workspace.Settings) []Index {
	var out []Index
	seen := map[string]bool{}
	for _, r := range s.Roots {
		out = append(out, Index{Name: r.Name, RootPath: r.Path})
		seen[workspace.FoldKey(r.Name)] = true
	}
	entries, _ := os.ReadDir(contentRoot)
	var extra []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && !seen[workspace.FoldKey(n)] && workspace.TestStoredIndexName(n) && !s.IsRemoved(n) &&
			!strings.HasPrefix(n, ".old-") && !strings.HasPrefix(n, content.DeferredPrefix) {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		out = append(out, Index{Name: n})
	}
	for i := range out {
		if f, ok := source.Lookup(contentRoot, s, out[i].Name); ok {
			out[i].Source = f.Path
		}
	}
	return out
}
