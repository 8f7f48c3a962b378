package web

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/source"
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
	if p := source.UnreachableFolder(s.ws.ContentRoot(), st, rel, openProbeWait, s.probe.Reached); p != "" {
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

// handleOpen opens an indexed source file with the desktop's
// applications (POST /api/open {path, mode, place, cell}), or shows its
// folder with the file selected ({path, folder: true}); reference/search.md
// §9, gui.md §4.8. mode is normal, readOnly or new (empty: the settings'
// openMode); place and cell are the hit's, for Excel to open at. Only a
// browser on this machine may ask: anyone else gets the download.
func (s *Server) handleOpen(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path        string
		Folder      bool
		Mode        string
		Place, Cell string
	}
	if !readJSON(w, r, &req) {
		return
	}
	if !sameMachine(r) {
		writeUserError(w, http.StatusForbidden, msgOpenRemote)
		return
	}
	mode, ok := desktop.ParseMode(req.Mode)
	if !ok {
		writeError(w, http.StatusBadRequest, "web: bad open mode "+req.Mode)
		return
	}
	f, err := s.resolveSource(req.Path)
	if err != nil {
		writeSourceError(w, err)
		return
	}
	if req.Folder {
		if err := s.opt.Desktop.OpenFolder(f.Path); err != nil {
			writeOpenError(w, err, filepath.Dir(f.Path))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"message": fmt.Sprintf(msgOpened, filepath.Dir(f.Path))})
		return
	}
	if req.Mode == "" {
		if st, _, err := s.loadSettings(); err == nil {
			mode, _ = desktop.ParseMode(st.OpenMode)
		}
	}
	// A macro-capable file of a received index opens as a read-only copy,
	// or not at all (reference/search.md §9).
	target, err := source.OpenTarget(f, s.ws.TmpRoot())
	if err != nil {
		writeUserError(w, http.StatusInternalServerError, fmt.Sprintf(msgReadOnlyImpossible, f.Path))
		return
	}
	msg, copied := msgOpened, target != f.Path
	if copied {
		msg, mode = msgOpenedCopy, desktop.ModeReadOnly
	}
	note, err := s.opt.Desktop.Open(desktop.Target{Path: target, Mode: mode, Place: req.Place, Cell: req.Cell, Protected: copied})
	if err != nil {
		writeOpenError(w, err, target)
		return
	}
	if note == "" {
		note = fmt.Sprintf(msg, target)
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": note})
}

// writeOpenError answers an opener's failure: 元のファイルを開けませんでした
// with the opener's Japanese reason, the English cause in the error field.
func writeOpenError(w http.ResponseWriter, err error, target string) {
	why := msgOpenerNotStarted
	var de *desktop.Error
	if errors.As(err, &de) {
		why = de.Msg
		if de.Err != nil {
			err = de.Err
		}
	}
	writeJSON(w, http.StatusInternalServerError, apiError{Error: err.Error(), Message: fmt.Sprintf(msgOpenFailed, target, why)})
}

// handleOpenMode makes a mode the default (POST /api/open/mode {mode}):
// the preview's ［▾］ picks a mode and keeps it (reference/gui.md §4.8),
// as openMode in settings.json, checked and stored by the settings key
// as the 設定 screen does (an empty mode is refused: the menu always
// names one).
func (s *Server) handleOpenMode(w http.ResponseWriter, r *http.Request) {
	var req struct{ Mode string }
	if !readJSON(w, r, &req) {
		return
	}
	key, _ := workspace.LookupSetting("openMode")
	v, err := key.Check(req.Mode)
	if err != nil || strings.TrimSpace(req.Mode) == "" {
		writeError(w, http.StatusBadRequest, "web: bad open mode "+req.Mode)
		return
	}
	_, err = s.changeSettings(func(st *workspace.Settings) (string, error) {
		if key.Value(s.ws, st) == v {
			return "", errUnchanged
		}
		return "", key.Set(st, v)
	})
	if err != nil {
		writeEditError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"openMode": v})
}
