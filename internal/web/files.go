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

	"github.com/fumibako/fumibako/internal/source"
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
// ingest list's relative path) into its source file (source.Resolve: the
// index's folder looked up and, for a received index, confirmed; only
// files the ingest list names, under their folder, links resolved).
//
// A network folder is probed first (reference/search.md §9): one that
// does not answer within openProbeWait gives ✗ 元のフォルダに接続できません
// instead of a request that hangs on the share.
func (s *Server) resolveSource(rel string) (source.File, error) {
	st, _, err := s.loadSettings()
	if err != nil {
		return source.File{}, err
	}
	l, err := s.ingestList()
	if err != nil {
		return source.File{}, err
	}
	if p := source.UnreachableFolder(s.ws.ContentRoot(), st, rel, openProbeWait, s.probe.reached); p != "" {
		return source.File{}, &sourceError{Code: http.StatusGatewayTimeout, Msg: fmt.Sprintf(msgUnreachable, p), Err: "web: source folder not answering: " + p}
	}
	return source.Resolve(s.ws.ContentRoot(), st, l, rel)
}

// openProbeWait bounds how long opening a hit waits for its network
// folder to answer (a variable: tests shorten it).
var openProbeWait = source.OpenWait

// sourceStatus is the HTTP status of each source.Error kind.
var sourceStatus = map[source.Kind]int{
	source.BadPath: http.StatusBadRequest,
	source.Unknown: http.StatusNotFound,
	source.Confirm: http.StatusConflict,
	source.Missing: http.StatusNotFound,
	source.Outside: http.StatusForbidden,
}

func writeSourceError(w http.ResponseWriter, err error) {
	var se *sourceError
	if errors.As(err, &se) {
		writeJSON(w, se.Code, apiError{Error: se.Err, Message: se.Msg})
		return
	}
	var fe *source.Error
	if errors.As(err, &fe) {
		writeJSON(w, sourceStatus[fe.Kind], sourceDialog(fe))
		return
	}
	writeError(w, http.StatusInternalServerError, err.Error())
}

// handleDownload sends an indexed source file as a download
// (GET /api/file?path=<index path>).
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	sf, err := s.resolveSource(r.URL.Query().Get("path"))
	if err != nil {
		writeSourceError(w, err)
		return
	}
	p := sf.Path
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
	f, err := s.resolveSource(req.Path)
	if err != nil {
		writeSourceError(w, err)
		return
	}
	target, msg := filepath.Dir(f.Path), msgOpened
	if !req.Folder {
		// A macro-capable file of a received index opens as a read-only
		// copy, or not at all (reference/search.md §9).
		if target, err = source.OpenTarget(f, s.ws.TmpRoot()); err != nil {
			writeUserError(w, http.StatusInternalServerError, fmt.Sprintf(msgReadOnlyImpossible, f.Path))
			return
		}
		if target != f.Path {
			msg = msgOpenedCopy
		}
	}
	if err := s.opt.Open(target); err != nil {
		writeJSON(w, http.StatusInternalServerError, apiError{Error: err.Error(), Message: fmt.Sprintf(msgOpenFailed, target)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": fmt.Sprintf(msg, target)})
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
