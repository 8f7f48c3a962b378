package indexing

import (
	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Each index's share of a run, and the run's banner that depends on the
// folders (issue 32): the index table shows 取り込み中 12/40 only where an
// index has work (View.Indexes), and a fatal end banner goes when the
// folders change (ClearFatal).

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
func (rn *Runner) planned(cur *runState, rows []indexer.PlanRow, a indexer.Answer) {
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

// ClearFatal drops the end banner of a run that ended in a fatal error
// (level error: no folder, none checked, a broken list): after an edit of
// the folders its cause may be gone, and a red banner that stays after
// the folder was added only misleads (issue 32). The log keeps it.
func (rn *Runner) ClearFatal() {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.end != nil && rn.end.Level == "error" {
		rn.end = nil
		rn.notify()
	}
}
