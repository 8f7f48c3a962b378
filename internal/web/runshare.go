package web

import (
	"fmt"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Each index's share of a run, and the run's banners that depend on the
// folders (issue 32): the index table shows 取り込み中 12/40 only where an
// index has work, ［インデックス作成を開始］ says at once why it cannot
// start, and a fatal end banner goes when the folders change.

// IndexRun is one index's part of a run: the files the plan gave it and
// how many of them have ended.
type IndexRun struct {
	Name  string `json:"name"`
	Total int    `json:"total"`
	Done  int    `json:"done"`
}

type pendingConfirm struct {
	view   ConfirmView
	answer chan indexer.Answer
}

// planned records each index's share of the run from the confirmed plan:
// its targets, and its failed files when they are tried again.
func (rn *runner) planned(cur *runState, rows []indexer.PlanRow, a indexer.Answer) {
	m := map[string]*IndexRun{}
	for _, r := range rows {
		n := r.Targets
		if a.RetryFailed {
			n += r.Failed
		}
		k := workspace.FoldKey(r.Index)
		if ir := m[k]; ir != nil {
			ir.Total += n
		} else {
			m[k] = &IndexRun{Name: r.Index, Total: n}
		}
	}
	rn.mu.Lock()
	cur.indexes = m
	rn.mu.Unlock()
}

// clearFatal drops the end banner of a run that ended in a fatal error
// (level error: no folder, none checked, a broken list): after an edit of
// the folders its cause may be gone, and a red banner that stays after
// the folder was added only misleads (issue 32). The log keeps it.
func (rn *runner) clearFatal() {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.end != nil && rn.end.Level == "error" {
		rn.end = nil
		rn.notify()
	}
}

// runStatus is the status of an index the running run covers (issue
// 32): 取り込み中 while the run crawls, 取り込み中 12/40 once the plan
// gives the index work, and 取り込み不要 when the plan gives it none, so
// that only the indexes with work look busy.
func runStatus(run RunView, name string) string {
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
