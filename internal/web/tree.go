package web

import (
	"net/http"
	"slices"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The search-target tree (reference/gui.md §4.2): GET /api/tree?path=P
// lists the sub-folders of P (`<index>[\<folder>…]`) as the body index
// holds them, loaded when a node is expanded:
//
//	{"folders":[{"name":"2024","files":true,"subfolders":false}, …], "files":true}
//
// files says that a folder holds indexed files directly (the tree's grey
// `（このフォルダ直下のファイル）` child when it also has sub-folders);
// subfolders that it can be expanded. Per-file folders waiting to be
// published are not folders of the tree.

type treeFolder struct {
	Name       string `json:"name"`
	Files      bool   `json:"files"`
	Subfolders bool   `json:"subfolders"`
}

func (s *Server) handleTree(w http.ResponseWriter, r *http.Request) {
	rel := r.URL.Query().Get("path")
	if !ingestlist.ValidRelPath(rel) && !workspace.TestStoredIndexName(rel) {
		writeError(w, http.StatusBadRequest, "web: not an index path: "+rel)
		return
	}
	folders, files, err := search.Folders(s.ws.ContentRoot(), rel)
	if err != nil {
		writeError(w, http.StatusForbidden, "web: outside the content root")
		return
	}
	out := make([]treeFolder, 0, len(folders))
	for _, f := range folders {
		out = append(out, treeFolder{Name: f.Name, Files: f.Files, Subfolders: f.Subfolders})
	}
	writeJSON(w, http.StatusOK, map[string]any{"folders": out, "files": files})
}

// maxExcludes bounds the exclusions one request saves.
const maxExcludes = 10000

// handleExcludes saves the unchecked nodes of the search-target tree in
// settings.json (POST /api/excludes {excludes:[{path, subfolders}]};
// searchExcludes, reference/gui.md §4.2), so every page open on the
// workspace shares them; GET /api/indexes hands them out.
func (s *Server) handleExcludes(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Excludes []workspace.SearchExclude
	}
	if !readJSON(w, r, &req) {
		return
	}
	if len(req.Excludes) > maxExcludes {
		writeError(w, http.StatusBadRequest, "web: too many exclusions")
		return
	}
	for _, e := range req.Excludes {
		if !ingestlist.ValidRelPath(e.Path) && !workspace.TestStoredIndexName(e.Path) {
			writeError(w, http.StatusBadRequest, "web: not an index path: "+e.Path)
			return
		}
	}
	_, err := s.changeSettings(func(st *workspace.Settings) (string, error) {
		if slices.Equal(st.SearchExcludes, req.Excludes) {
			return "", errUnchanged
		}
		st.SearchExcludes = req.Excludes
		return "", nil
	})
	if err != nil {
		writeEditError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"excludes": nonNil(req.Excludes)})
}

// searchExcludes returns the saved exclusions for GET /api/indexes.
func (s *Server) searchExcludes() []workspace.SearchExclude {
	st, _, err := s.loadSettings()
	if err != nil {
		return []workspace.SearchExclude{}
	}
	return nonNil(st.SearchExcludes)
}

func nonNil(e []workspace.SearchExclude) []workspace.SearchExclude {
	if e == nil {
		return []workspace.SearchExclude{}
	}
	return e
}
