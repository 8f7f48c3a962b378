package web

// The failure list, its 想定内 marks and the last run's log (reference/gui.md §2.3).

import (
	"fmt"
	"net/http"
	"os"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// FailureView is one row of the failure list (reference/gui.md §2.3).
type FailureView struct {
	Path    string `json:"path"`
	Msg     string `json:"msg"`
	At      string `json:"at"`
	Ignored bool   `json:"ignored,omitempty"` // marked 無視する (issue 18)
}

// maxFailuresShown bounds the failure list sent to the browser.
const maxFailuresShown = 5000

func (s *Server) handleFailures(w http.ResponseWriter, r *http.Request) {
	l, err := s.ingestList()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	expected, err := ingestlist.ReadExpected(ingestlist.ExpectedPath(s.ws.IngestList()))
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	var rows []FailureView
	total, ignored := 0, 0
	for _, row := range l.Failures() { // newest first
		msg := row.Error
		if msg == "" {
			msg = msgNoCause
		}
		fv := FailureView{Path: row.RelPath, Msg: msg, At: row.IngestedAt, Ignored: expected.Has(row.RelPath)}
		if fv.Ignored {
			ignored++
		} else {
			total++
		}
		rows = append(rows, fv)
	}
	if len(rows) > maxFailuresShown {
		rows = rows[:maxFailuresShown]
	}
	if rows == nil {
		rows = []FailureView{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"count": total, "ignored": ignored, "rows": rows})
}

// handleIgnore marks a failed file as an expected failure or unmarks it
// (POST /api/failures/ignore {path, ignore}; issue 18).
func (s *Server) handleIgnore(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path   string
		Ignore bool
	}
	if !readJSON(w, r, &req) {
		return
	}
	if !ingestlist.ValidRelPath(req.Path) {
		writeError(w, http.StatusBadRequest, "web: not an index path: "+req.Path)
		return
	}
	s.expectedMu.Lock()
	defer s.expectedMu.Unlock()
	path := ingestlist.ExpectedPath(s.ws.IngestList())
	e, err := ingestlist.ReadExpected(path)
	if err == nil {
		e.Set(req.Path, req.Ignore)
		err = ingestlist.WriteExpected(path, e)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	msg := fmt.Sprintf(msgIgnored, req.Path)
	if !req.Ignore {
		msg = fmt.Sprintf(msgUnignored, req.Path)
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": msg})
}

func (s *Server) handleLog(w http.ResponseWriter, r *http.Request) {
	data, err := os.ReadFile(s.ws.Log())
	if err != nil {
		writeError(w, http.StatusNotFound, "no log yet")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}
