package web

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/web/indexing"
	"github.com/fumibako/fumibako/internal/workspace"
)

// StateView is what the index page shows (reference/gui.md §2).
type StateView struct {
	Workspace   string        `json:"workspace"`
	Folders     []FolderView  `json:"folders"`
	TotalFiles  int           `json:"totalFiles"`
	Failures    int           `json:"failures"`    // not counting the expected ones (Ignored)
	Ignored     int           `json:"ignored"`     // failures marked 無視する
	Interrupted int           `json:"interrupted"` // 未取り込み rows left by a stopped or killed run
	HasIndex    bool          `json:"hasIndex"`    // some file has been ingested
	Notice      string        `json:"notice,omitempty"`
	Run         indexing.View `json:"run"`
}

// FolderView is one row of the index list (reference/gui.md §2.2, with
// the older column set).
type FolderView struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Enabled bool   `json:"enabled"`
	// OCRImages: the root's image files are read by OCR (issue 29;
	// POST /api/folders/ocr switches it).
	OCRImages bool `json:"ocrImages"`
	// HiddenSheets: hidden sheets of the root's workbooks are indexed
	// (issue 31; the index editor's checkbox, POST
	// /api/folders/hidden).
	HiddenSheets bool `json:"hiddenSheets"`
	// Folder is ok, missing or checking (a network folder that did not
	// answer in time).
	Folder  string `json:"folder"`
	Files   int    `json:"files"`
	Done    int    `json:"done"`
	Pending int    `json:"pending"`
	Failed  int    `json:"failed"`
	Ignored int    `json:"ignored"` // failed files marked 無視する: not counted in Failed or Status
	Last    string `json:"last"`    // 2006/01/02 15:04; "" when never
	Status  string `json:"status"`  // 未作成, 取り込み中[ N/M], 取り込み不要, 取り込み待ち, 一部失敗 N 件, エラー, 最新, 受け取ったインデックス
	// Received: an index received from elsewhere (indexSources, issue
	// 30): searchable, not crawled, so it has no checkbox; Confirmed,
	// its folder was confirmed.
	Received  bool `json:"received,omitempty"`
	Confirmed bool `json:"confirmed,omitempty"`
}

// Index status badges (reference/gui.md §2.2).
const (
	statusNone     = "未作成"
	statusRunning  = "取り込み中"
	statusRunningN = "取り込み中 %d/%d" // an index's files done of its share of the run (issue 32)
	statusNoWork   = "取り込み不要"      // covered by the run, nothing to ingest (issue 32)
	statusStale    = "取り込み待ち"
	statusError    = "エラー"
	statusPartial  = "一部失敗 %d 件" // files failed, the rest is searchable (issue 18)
	statusFresh    = "最新"
)

// folderCheckWait bounds how long the state waits for folder existence
// checks; a network folder that is slower shows as "checking".
const folderCheckWait = 300 * time.Millisecond

func (s *Server) loadSettings() (*workspace.Settings, string, error) {
	st, err := s.ws.LoadSettings()
	if err != nil {
		var b *workspace.BrokenSettingsError
		if !errors.As(err, &b) {
			return nil, "", err
		}
		return st, b.Error(), nil
	}
	return st, st.Ignored, nil
}

// runView is the runner's snapshot plus the lock held by another process.
func (s *Server) runView() (indexing.View, <-chan struct{}) {
	v, ch := s.run.View(time.Now())
	if !v.Running && s.run.OtherHolds() {
		v.Locked = true
		v.LockMessage = workspace.MsgLocked
	}
	s.otherLock.Store(v.Locked)
	v.Auto = s.auto.View()
	return v, ch
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	st, notice, err := s.loadSettings()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	l, err := s.ingestList()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	run, _ := s.runView()
	v := StateView{Workspace: s.ws.Root, Notice: notice, Run: run, Folders: []FolderView{}}
	counts := l.CountByIndex()
	// Expected failures (無視する) do not make an index fail (issue 18).
	expected, err := ingestlist.ReadExpected(ingestlist.ExpectedPath(s.ws.IngestList()))
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	ignored := map[string]int{}
	if expected.Len() > 0 {
		for _, row := range l.Rows {
			if row.Failed() && expected.Has(row.RelPath) {
				k := workspace.FoldKey(row.IndexName())
				counts[k].Failed--
				ignored[k]++
				v.Ignored++
			}
		}
	}
	for _, c := range counts {
		v.Failures += c.Failed
		v.HasIndex = v.HasIndex || c.Done > 0
		if !run.Running {
			v.Interrupted += c.Pending
		}
	}
	paths := make([]string, len(st.Roots))
	for i, r := range st.Roots {
		paths[i] = r.Path
	}
	exists := s.probe.Check(paths, folderCheckWait)
	for i, root := range st.Roots {
		fv := FolderView{}
		if c := counts[workspace.FoldKey(root.Name)]; c != nil {
			fv.Files, fv.Done, fv.Failed, fv.Pending, fv.Last = c.Files, c.Done, c.Failed, c.Pending, c.Last
			fv.Ignored = ignored[workspace.FoldKey(root.Name)]
		}
		fv.Name, fv.Path, fv.Enabled, fv.Folder = root.Name, root.Path, root.IsEnabled(), string(exists[i])
		fv.OCRImages, fv.HiddenSheets = root.OCRImages, root.HiddenSheets
		fv.Last = dateTime(fv.Last)
		switch {
		case run.Running && fv.Enabled && runCovers(run, root.Name):
			fv.Status = runStatus(run, root.Name)
		case fv.Files == 0:
			fv.Status = statusNone
		case fv.Failed > 0 && fv.Done > 0:
			// Searchable all the same: the index is not in error (issue 18).
			fv.Status = fmt.Sprintf(statusPartial, fv.Failed)
		case fv.Failed > 0:
			fv.Status = statusError
		case fv.Pending > 0:
			fv.Status = statusStale
		default:
			fv.Status = statusFresh
		}
		v.TotalFiles += fv.Files
		v.Folders = append(v.Folders, fv)
	}
	for _, fv := range s.receivedRows(st, counts) {
		v.TotalFiles += fv.Files
		v.Folders = append(v.Folders, fv)
	}
	writeJSON(w, http.StatusOK, v)
}

// dateTime formats an ingest-list time with its date, `2006/01/02 15:04`
// (issue 18: the older list's `H:mm` for today left the day to guess).
func dateTime(s string) string {
	if s == "" {
		return ""
	}
	t, err := time.ParseInLocation("2006/01/02 15:04:05", s, time.Local)
	if err != nil {
		return s
	}
	return t.Format("2006/01/02 15:04")
}

// busy refuses an index edit while a run holds the workspace.
func (s *Server) busy(w http.ResponseWriter, what string) bool {
	if s.run.Running() || s.run.OtherHolds() {
		writeUserError(w, http.StatusConflict, fmt.Sprintf(msgBusy, what))
		return true
	}
	return false
}

// editSettings applies edit to the settings (changeSettings) and answers
// the request with its message or error.
func (s *Server) editSettings(w http.ResponseWriter, edit func(*workspace.Settings) (string, error)) {
	msg, err := s.changeSettings(edit)
	if err != nil {
		writeEditError(w, err)
		return
	}
	go s.auto.Restart() // the watcher watches the roots as edited
	s.run.ClearFatal()  // a run that ended for want of a folder: its banner goes (issue 32)
	writeJSON(w, http.StatusOK, map[string]string{"message": msg})
}

// errUnchanged, from an edit of changeSettings, saves nothing.
var errUnchanged = errors.New("web: settings unchanged")

// changeSettings lets edit change the settings and saves them, under the
// settings lock (workspace.UpdateSettings), so that edits made at the
// same time by the CLI or other requests are kept. An edit that returns
// errUnchanged saves nothing.
func (s *Server) changeSettings(edit func(*workspace.Settings) (string, error)) (string, error) {
	var msg string
	_, err := s.ws.UpdateSettings(func(st *workspace.Settings) error {
		var err error
		msg, err = edit(st)
		return err
	})
	if errors.Is(err, errUnchanged) {
		return msg, nil
	}
	return msg, err
}

// checkIndex checks the index name in the settings (a row's ［取り込む］),
// saving them only when it was unchecked.
func (s *Server) checkIndex(name string) error {
	_, err := s.changeSettings(func(st *workspace.Settings) (string, error) {
		if root, _, ok := st.Root(name); ok && root.IsEnabled() {
			return "", errUnchanged
		}
		return "", st.SetEnabled(name, true)
	})
	return err
}

// writeEditError answers an index edit that failed: a user error with its
// text (indexer.UserText, the CLI's too), a held lock (the workspace's,
// or the settings' past its wait) as a conflict.
func writeEditError(w http.ResponseWriter, err error) {
	var le *workspace.LockError
	var busy *workspace.SettingsBusyError
	text, ok := indexer.UserText(err)
	switch {
	case errors.As(err, &le), errors.As(err, &busy):
		writeUserError(w, http.StatusConflict, text)
	case ok:
		writeUserError(w, http.StatusBadRequest, text)
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

// cleanPath removes what a pasted folder path often carries: blanks,
// surrounding quotes (reference/gui.md §2.4).
func cleanPath(p string) string {
	p = strings.TrimSpace(p)
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		p = strings.TrimSpace(p[1 : len(p)-1])
	}
	return p
}

// typedPathProblem returns why a folder typed in the browser cannot be
// registered as it is, "" when it can: it must be absolute on the server,
// and a Windows path (\\server\share, C:\…) only works on Windows.
func typedPathProblem(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return ""
	}
	unc := strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")
	drive := len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
	if unc || drive {
		return fmt.Sprintf(msgWindowsPath, p)
	}
	return fmt.Sprintf(msgRelativePath, p)
}

func (s *Server) handleFolderAdd(w http.ResponseWriter, r *http.Request) {
	var req struct{ Path, Name string }
	if !readJSON(w, r, &req) || s.busy(w, "追加") {
		return
	}
	used := indexer.UsedIndexNames(s.ws)
	path := cleanPath(req.Path)
	s.editSettings(w, func(st *workspace.Settings) (string, error) {
		if msg := typedPathProblem(path); msg != "" {
			return "", &workspace.FolderError{Msg: msg}
		}
		root, err := st.AddRoot(path, strings.TrimSpace(req.Name), s.ws.Root, used)
		msg := fmt.Sprintf(msgAdded, root.Name, root.Path)
		if w := workspace.FolderWarning(root.Path); err == nil && w != "" {
			msg += " ※ " + w // accepted: a network folder not connected now
		}
		return msg, err
	})
}

func (s *Server) handleFolderRename(w http.ResponseWriter, r *http.Request) {
	var req struct{ Name, NewName, Path string }
	if !readJSON(w, r, &req) || s.busy(w, "編集") {
		return
	}
	var parts []string
	name := req.Name
	if req.NewName != "" && req.NewName != req.Name {
		if _, err := indexer.RenameIndex(s.ws, req.Name, req.NewName); err != nil {
			writeEditError(w, err)
			return
		}
		name = req.NewName
		parts = append(parts, fmt.Sprintf(msgRenamedName, req.Name, req.NewName))
	}
	// The path edit (reference/gui.md §2.4): the index stays (issue 30).
	moved, warn, err := s.moveRoot(name, req.Path)
	if err != nil {
		writeEditError(w, err)
		return
	}
	if moved != "" {
		parts = append(parts, moved)
	}
	msg := fmt.Sprintf(msgEdited, strings.Join(parts, " / "))
	if warn != "" {
		msg += " ※ " + warn
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": msg})
}

func (s *Server) handleFolderEnable(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name    string
		Enabled bool
	}
	if !readJSON(w, r, &req) {
		return
	}
	s.editSettings(w, func(st *workspace.Settings) (string, error) {
		return "", st.SetEnabled(req.Name, req.Enabled)
	})
}

// handleFolderOCR switches the OCR of a root's image files (issue 29):
// {"name": "営業", "ocrImages": true}. The next run takes the images in, or
// removes them from the index.
func (s *Server) handleFolderOCR(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name      string
		OCRImages bool
	}
	if !readJSON(w, r, &req) {
		return
	}
	s.editSettings(w, func(st *workspace.Settings) (string, error) {
		return "", st.SetOCRImages(req.Name, req.OCRImages)
	})
}

// handleFolderHiddenSheets switches the reading of a root's hidden sheets
// (issue 31): {"name": "営業", "hiddenSheets": true}. The next run reads
// the root's workbooks again.
func (s *Server) handleFolderHiddenSheets(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name         string
		HiddenSheets bool
	}
	if !readJSON(w, r, &req) {
		return
	}
	s.editSettings(w, func(st *workspace.Settings) (string, error) {
		return "", st.SetHiddenSheets(req.Name, req.HiddenSheets)
	})
}

func (s *Server) handleFolderRemove(w http.ResponseWriter, r *http.Request) {
	var req struct{ Name string }
	if !readJSON(w, r, &req) || s.busy(w, "削除") {
		return
	}
	s.editSettings(w, func(st *workspace.Settings) (string, error) {
		root, err := st.RemoveRoot(req.Name)
		if src, received := st.Source(req.Name); err != nil && received {
			// A received index (issue 30): removed like a root's.
			root, err = workspace.Root{Name: src.Name, Path: src.Path}, nil
			st.MarkRemoved(root)
		}
		return fmt.Sprintf(msgRemoved, root.Name), err
	})
}

// runCovers reports whether the run updates the index name.
func runCovers(run indexing.View, name string) bool {
	return len(run.Only) == 0 || workspace.NameIn(run.Only, name)
}

// handleRunStart starts a run: of every checked index, or with Only of
// that one index (a row's ［取り込む］: it is checked first, reference/gui.md
// §3.1).
func (s *Server) handleRunStart(w http.ResponseWriter, r *http.Request) {
	var req struct{ Only string }
	if !readJSON(w, r, &req) {
		return
	}
	var only []string
	if req.Only != "" {
		if err := s.checkIndex(req.Only); err != nil {
			writeUserError(w, http.StatusBadRequest, err.Error())
			return
		}
		only = []string{req.Only}
	} else if msg := s.nothingToRun(); msg != "" {
		// Said at once, beside the button, instead of a run that ends in a
		// red banner (issue 32).
		writeUserError(w, http.StatusBadRequest, msg)
		return
	}
	// The background watcher (自動で更新する) hands the lock over: its run
	// stops as on the stop button, and it resumes when this run ends.
	s.auto.Pause()
	err := s.run.Start(only)
	if err != nil {
		s.auto.Resume()
	}
	var le *workspace.LockError
	switch {
	case errors.Is(err, indexing.ErrBusy):
		writeUserError(w, http.StatusConflict, workspace.MsgLocked)
	case errors.As(err, &le):
		writeUserError(w, http.StatusConflict, le.Error())
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
	default:
		writeJSON(w, http.StatusOK, map[string]bool{"started": true})
	}
}

func (s *Server) handleRunConfirm(w http.ResponseWriter, r *http.Request) {
	var req indexer.Answer
	if !readJSON(w, r, &req) {
		return
	}
	if !s.run.Answer(req) {
		writeError(w, http.StatusConflict, "no confirmation is pending")
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) handleRunStop(w http.ResponseWriter, r *http.Request) {
	var req struct{ Kill bool }
	if !readJSON(w, r, &req) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"stopping": s.run.Stop(req.Kill)})
}
