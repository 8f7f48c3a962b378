package web

import (
	"fmt"
	"net/http"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/web/indexing"
	"github.com/fumibako/fumibako/internal/workspace"
)

// What the index page shows of the run (package indexing drives it): an
// index row's status during a run, why ［インデックス作成を開始］ cannot
// start, and the 自動で更新する switch.

// runStatus is the status of an index the running run covers (issue
// 32): 取り込み中 while the run crawls, 取り込み中 12/40 once the plan
// gives the index work, and 取り込み不要 when the plan gives it none, so
// that only the indexes with work look busy.
func runStatus(run indexing.View, name string) string {
	if run.Indexes == nil {
		return statusRunning
	}
	for _, ir := range run.Indexes {
		if workspace.FoldKey(ir.Name) == workspace.FoldKey(name) && ir.Total > 0 {
			return fmt.Sprintf(statusRunningN, ir.Done, ir.Total)
		}
	}
	return statusNoWork
}

// nothingToRun is why ［インデックス作成を開始］ cannot start a run (no
// folder, or none checked), "" when it can: the indexer's own messages.
func (s *Server) nothingToRun() string {
	st, _, err := s.loadSettings()
	if err != nil {
		return "" // the run reports it
	}
	if len(st.Roots) == 0 {
		return indexer.MsgNoRoots
	}
	for _, r := range st.Roots {
		if r.IsEnabled() {
			return ""
		}
	}
	return indexer.MsgNoEnabled
}

// handleAuto turns 自動で更新する on or off: saved in settings.json, the
// watcher started or halted.
func (s *Server) handleAuto(w http.ResponseWriter, r *http.Request) {
	var req struct{ On bool }
	if !readJSON(w, r, &req) {
		return
	}
	_, err := s.ws.UpdateSettings(func(st *workspace.Settings) error {
		st.AutoUpdate = req.On
		return nil
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.auto.Sync()
	writeJSON(w, http.StatusOK, map[string]bool{"on": req.On})
}
