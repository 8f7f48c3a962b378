package web

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

// dialogAnswer is the body of a refused open that the UI answers with a
// dialog (reference/gui.md §4.8): dialog "confirm" (元のフォルダを確かめて
// ください: ［フォルダを選ぶ］［このフォルダを使う］, with a warning for a
// network folder) or "missing" (<ファイル名> が見つかりません:
// ［フォルダを選ぶ］).
type dialogAnswer struct {
	apiError
	Dialog  string `json:"dialog,omitempty"`
	Title   string `json:"title,omitempty"`
	Index   string `json:"index,omitempty"`
	Folder  string `json:"folder,omitempty"`
	Network bool   `json:"network,omitempty"`
	Warning string `json:"warning,omitempty"`
}

// sourceDialog is the JSON answer of a source.Error.
func sourceDialog(fe *source.Error) dialogAnswer {
	a := dialogAnswer{apiError: apiError{Error: fe.Err.Error(), Message: fe.Msg}, Index: fe.Folder.Index, Folder: fe.Folder.Path}
	switch fe.Kind {
	case source.Confirm:
		a.Dialog, a.Title, a.Network = "confirm", source.MsgConfirmTitle, fe.Folder.Network
		if a.Network {
			a.Warning = source.MsgNetworkWarn
		}
	case source.Missing:
		if fe.Folder.Index != "" {
			a.Dialog, a.Title = "missing", fe.Msg
		}
	}
	return a
}

// handleSource sets an index's source folder (POST /api/source): with
// {index, folder}, the folder the user confirmed or typed
// (［このフォルダを使う］, fumibako folder source); with {path, folder}, a
// hit's file is looked for under the folder the user picked, in the
// relative folders' order (source.FindUnder), and the root that implies is
// stored, so the index's other files open without asking (インデックス
// [名前] の元のフォルダを … に変えました). Only a browser on this machine
// may: the folder decides what the server opens and serves.
func (s *Server) handleSource(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Index, Path, Folder string
	}
	if !readJSON(w, r, &req) {
		return
	}
	if !sameMachine(r) {
		writeUserError(w, http.StatusForbidden, msgSourceRemote)
		return
	}
	folder := cleanPath(req.Folder)
	if folder == "" {
		writeUserError(w, http.StatusBadRequest, msgNoFolderGiven)
		return
	}
	if abs, err := filepath.Abs(folder); err == nil {
		folder = abs
	}
	index, root, msg := req.Index, folder, ""
	if req.Path != "" {
		l, err := s.ingestList()
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		if _, ok := l.Lookup(req.Path); !ok || !ingestlist.ValidRelPath(req.Path) {
			writeError(w, http.StatusNotFound, "web: not in the ingest list: "+req.Path)
			return
		}
		found, err := source.FindUnder(folder, req.Path)
		if err != nil {
			writeSourceError(w, err)
			return
		}
		index, root, msg = found.Index, found.Root, found.Msg
	}
	if msg == "" {
		msg = fmt.Sprintf(source.MsgRepointed, index, root)
	}
	_, err := s.changeSettings(func(st *workspace.Settings) (string, error) {
		if !source.Known(s.ws.ContentRoot(), st, index) {
			return "", &workspace.FolderError{Msg: fmt.Sprintf(msgNoIndex, index)}
		}
		return msg, st.SetSource(index, root)
	})
	if err != nil {
		writeEditError(w, err)
		return
	}
	out := map[string]string{"message": msg}
	if w := workspace.FolderWarning(root); w != "" {
		out["warning"] = w
	} else if workspace.IsNetworkPath(root) {
		out["warning"] = source.MsgNetworkWarn
	}
	writeJSON(w, http.StatusOK, out)
}

// Messages of POST /api/source.
const (
	msgNoFolderGiven = "元のフォルダを指定してください。"
	msgNoIndex       = "インデックス「%s」はありません。"
)

// Badges of a received index's row.
const (
	statusReceived    = "受け取ったインデックス"
	statusUnconfirmed = "受け取ったインデックス（元のフォルダを確かめていません）"
)

// receivedRows are the index rows of the received indexes (indexSources
// that name no crawl root and whose index is on disk): searchable, not
// crawled (issue 30).
func (s *Server) receivedRows(st *workspace.Settings, counts map[string]*ingestlist.Counts) []FolderView {
	var out []FolderView
	for _, src := range st.IndexSources {
		if _, _, isRoot := st.Root(src.Name); isRoot || st.IsRemoved(src.Name) || !source.Known(s.ws.ContentRoot(), st, src.Name) {
			continue
		}
		fv := FolderView{Name: src.Name, Path: src.Path, Received: true, Confirmed: src.Confirmed, Folder: "ok", Status: statusUnconfirmed}
		if src.Confirmed {
			fv.Status = statusReceived
		}
		if c := counts[workspace.FoldKey(src.Name)]; c != nil {
			fv.Files, fv.Done, fv.Failed, fv.Pending, fv.Last = c.Files, c.Done, c.Failed, c.Pending, dateTime(c.Last)
		}
		out = append(out, fv)
	}
	return out
}

// moveRoot changes where a root's files are (workspace.Settings.MoveRoot)
// when path is given and differs: the index and its rows stay, so nothing
// is ingested again. It returns the 場所 part of the message and the
// warning for a folder not reachable now.
func (s *Server) moveRoot(name, path string) (moved, warning string, err error) {
	path = cleanPath(path)
	if path == "" {
		return "", "", nil
	}
	if msg := typedPathProblem(path); msg != "" {
		return "", "", &workspace.FolderError{Msg: msg}
	}
	_, err = s.changeSettings(func(st *workspace.Settings) (string, error) {
		if r, _, ok := st.Root(name); ok && r.Path == path {
			return "", errUnchanged
		}
		old, err := st.MoveRoot(name, path, s.ws.Root)
		if err != nil {
			return "", err
		}
		now, _, _ := st.Root(name)
		moved = fmt.Sprintf(msgMovedPath, old.Path, now.Path)
		warning = workspace.FolderWarning(now.Path)
		return "", nil
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return moved, warning, err
}
