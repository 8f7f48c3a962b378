package web

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// sourceError is a refused or failed file access: Code is the HTTP status,
// Msg the Japanese text (empty for a malformed request).
type sourceError struct {
	Code int
	Msg  string
	Err  string
}

func (e *sourceError) Error() string { return e.Err }

// resolveSource turns an index path (`<index>\<path under the root>`, the
// ingest list's relative path) into the OS path of the source file. The
// index must be registered; every segment must be a plain name (no `..`,
// no separator); the path is resolved with its symbolic links and must
// still lie under the root, itself resolved; and it must be a regular
// file. It must also be in the ingest list. Nothing else on the machine
// can be reached this way.
func (s *Server) resolveSource(rel string) (string, error) {
	if !ingestlist.ValidRelPath(rel) {
		return "", &sourceError{Code: http.StatusBadRequest, Err: "web: not an index path: " + rel}
	}
	index, rest := ingestlist.SplitRelPath(rel)
	st, _, err := s.loadSettings()
	if err != nil {
		return "", err
	}
	root, _, ok := st.Root(index)
	if !ok {
		return "", &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgNoIndexRoot, index), Err: "web: no root for index " + index}
	}
	// Only files the index holds: a path that the ingest list does not
	// name (never crawled, or a dot file the crawl skips) is not served.
	l, err := s.ingestList()
	if err != nil {
		return "", err
	}
	if _, ok := l.Lookup(rel); !ok {
		return "", &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgFileMissing, content.BaseOf(rel)), Err: "web: not in the ingest list: " + rel}
	}
	rootReal, err := filepath.EvalSymlinks(root.Path)
	if err != nil {
		return "", &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgFileMissing, root.Path), Err: "web: root: " + err.Error()}
	}
	name := filepath.Join(root.Path, ingestlist.LocalPath(rest))
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgFileMissing, filepath.Base(name)), Err: "web: " + err.Error()}
	}
	if !workspace.IsWithin(real, rootReal) {
		return "", &sourceError{Code: http.StatusForbidden, Err: "web: " + rel + " resolves outside its root"}
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		return "", &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgFileMissing, filepath.Base(name)), Err: "web: not a regular file: " + rel}
	}
	return real, nil
}

func writeSourceError(w http.ResponseWriter, err error) {
	var se *sourceError
	if errors.As(err, &se) {
		writeJSON(w, se.Code, apiError{Error: se.Err, Message: se.Msg})
		return
	}
	writeError(w, http.StatusInternalServerError, err.Error())
}

// handleDownload sends an indexed source file as a download
// (GET /api/file?path=<index path>).
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	p, err := s.resolveSource(r.URL.Query().Get("path"))
	if err != nil {
		writeSourceError(w, err)
		return
	}
	f, err := os.Open(p)
	if err != nil {
		writeSourceError(w, &sourceError{Code: http.StatusNotFound, Msg: fmt.Sprintf(msgFileMissing, filepath.Base(p)), Err: err.Error()})
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filepath.Base(p)}))
	w.Header().Set("Content-Type", "application/octet-stream")
	http.ServeContent(w, r, "", info.ModTime(), f)
}

// handleOpen opens an indexed source file, or its folder, with the
// desktop's default application (POST /api/open {path, folder}). Only a
// browser on this machine may ask: anyone else gets the download.
func (s *Server) handleOpen(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path   string
		Folder bool
	}
	if !readJSON(w, r, &req) {
		return
	}
	if !sameMachine(r) {
		writeUserError(w, http.StatusForbidden, msgOpenRemote)
		return
	}
	p, err := s.resolveSource(req.Path)
	if err != nil {
		writeSourceError(w, err)
		return
	}
	target := p
	if req.Folder {
		target = filepath.Dir(p)
	}
	if err := s.opt.Open(target); err != nil {
		writeUserError(w, http.StatusInternalServerError, fmt.Sprintf(msgOpenFailed, target, err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": fmt.Sprintf(msgOpened, target)})
}

// scriptExtensions open in a text editor, never with their default
// (executing) application (reference/search.md §9).
var scriptExtensions = map[string]bool{".bat": true, ".cmd": true, ".ps1": true, ".vbs": true, ".js": true, ".reg": true, ".sh": true}

func isScript(path string) bool {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return false
	}
	return scriptExtensions[strings.ToLower(filepath.Ext(path))]
}

// exists reports whether a path exists (for the opener's checks).
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
