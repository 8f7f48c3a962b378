package indexing

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// LogLine is one line of the run's log as the browser gets it.
type LogLine struct {
	Seq   int    `json:"seq"`
	Text  string `json:"text"`
	Level string `json:"level"` // info, warn, error, good
}

// View is a snapshot of the indexing run for the banner and the
// progress display (reference/gui.md §2.1, §3.3).
type View struct {
	Running   bool    `json:"running"`
	Phase     string  `json:"phase"`
	Total     int     `json:"total"`
	Done      int     `json:"done"`
	Failed    int     `json:"failed"`
	Remaining int     `json:"remaining"`
	Percent   float64 `json:"percent"` // 0..100; -1 while the amount is unknown
	Rate      float64 `json:"rate"`    // files per second since the first finished file
	Banner    string  `json:"banner"`
	Current   string  `json:"current,omitempty"` // 取り込み中のファイル：…
	// OCR is the pages of the file being read by OCR: OCR 12/300 ページ
	// (issue 29); "" when none is.
	OCR string `json:"ocr,omitempty"`
	// Note is a one-time preparation the file being read waits for: PDF
	// を読む準備をしています（初回だけ） (issue 33); "" when none is.
	Note     string `json:"note,omitempty"`
	TimeLeft string `json:"timeLeft,omitempty"`
	Stopping bool   `json:"stopping"`
	// Only names the indexes of a row's ［取り込む］; empty when the run
	// covers every checked index.
	Only []string `json:"only,omitempty"`
	// Indexes is every index's part of the run once the plan is
	// decided; nil while the run crawls.
	Indexes []IndexRun `json:"indexes,omitempty"`

	Confirm *ConfirmView `json:"confirm,omitempty"`
	End     *EndView     `json:"end,omitempty"`

	// Locked is set when another process (a `fumibako index` in a
	// terminal, another PC) holds the workspace lock.
	Locked      bool   `json:"locked"`
	LockMessage string `json:"lockMessage,omitempty"`

	LogNext int `json:"logNext"`

	// Auto is 自動で更新する: the background watcher (Auto.View).
	Auto *AutoView `json:"auto,omitempty"`
}

// EndView is how a run ended (reference/gui.md §3.5).
type EndView struct {
	Level string `json:"level"` // ok (green), fail (red: failures), warn (yellow: stop, cancel), error (red: fatal)
	Text  string `json:"text"`
	Hint  string `json:"hint,omitempty"`
}

// ConfirmView is the plan shown in the confirmation dialog (reference
// gui.md §3.2).
type ConfirmView struct {
	Rows    []indexer.PlanRow `json:"rows"`
	Failed  int               `json:"failed"`  // files that failed before and did not change
	Targets int               `json:"targets"` // files to ingest
	Folders int               `json:"folders"` // indexes with something to ingest
}

// fillProgress composes the banner texts (reference/gui.md §3.3).
func fillProgress(v *View, cur *runState, now time.Time) {
	p := cur.progress
	v.Running = true
	v.Phase, v.Total, v.Done, v.Failed, v.Remaining = p.Phase, p.Total, p.Done, p.Failed, p.Remaining
	v.Stopping = cur.stopping
	v.Only = cur.only
	if cur.indexes != nil {
		v.Indexes = []IndexRun{}
		for _, ir := range cur.indexes {
			v.Indexes = append(v.Indexes, *ir)
		}
		slices.SortFunc(v.Indexes, func(a, b IndexRun) int { return strings.Compare(a.Name, b.Name) })
	}
	switch {
	case cur.confirm != nil:
		c := cur.confirm.view
		v.Confirm = &c
		v.Banner = msgConfirming
	case p.Phase == indexer.PhaseIngest && p.Done == 0:
		v.Banner = fmt.Sprintf(msgStarting, p.Total)
		v.Percent = 0
	case p.Phase == indexer.PhaseIngest:
		if p.Failed > 0 {
			v.Banner = fmt.Sprintf(msgRunningFails, p.Done, p.Total, p.Failed)
		} else {
			v.Banner = fmt.Sprintf(msgRunning, p.Done, p.Total)
		}
	case p.Phase == indexer.PhaseFinish:
		v.Banner = msgFinishing
	default:
		v.Banner = msgCrawling
	}
	if p.Phase == indexer.PhaseIngest || p.Phase == indexer.PhaseFinish {
		if p.Total > 0 {
			v.Percent = 100 * float64(p.Done) / float64(p.Total)
		}
		if p.Current != "" && p.Phase == indexer.PhaseIngest {
			v.Current = fmt.Sprintf(msgCurrent, p.Current)
		}
		if p.OCRTotal > 0 && p.Phase == indexer.PhaseIngest {
			v.OCR = fmt.Sprintf(msgOCRPages, p.OCRDone, p.OCRTotal)
		}
		if p.Preparing != "" && p.Phase == indexer.PhaseIngest {
			v.Note = p.Preparing
		}
	}
	v.Rate = cur.rate.PerSecond()
	if left, ok := cur.rate.Left(p.Remaining); ok && p.Phase == indexer.PhaseIngest && p.Remaining > 0 {
		v.TimeLeft = timeLeft(left)
	}
	if cur.stopping {
		v.Banner = msgStopping
	}
}

// timeLeft is `残り約 N 分`, or `残り 1 分未満` below a minute.
func timeLeft(d time.Duration) string {
	if d < time.Minute {
		return msgLeftUnder1
	}
	return fmt.Sprintf(msgLeftMinutes, int((d+30*time.Second)/time.Minute))
}

// endView turns a run's outcome into its end text (reference/gui.md §3.5).
func endView(sum *indexer.Summary, err error) *EndView {
	if err != nil {
		// The same texts as the CLI's (indexer.UserText); an internal
		// error's English chain is in the log, not in the banner.
		var lockErr *workspace.LockError
		if errors.As(err, &lockErr) {
			return &EndView{Level: "error", Text: lockErr.Error()}
		}
		msg := msgEndFatalNoCause
		if text, ok := indexer.UserText(err); ok {
			msg = text
		}
		return &EndView{Level: "error", Text: msgEndFatal, Hint: msg}
	}
	switch {
	case sum.Cancelled:
		return &EndView{Level: "warn", Text: msgEndDeclined}
	case sum.Stopped:
		return &EndView{Level: "warn", Text: fmt.Sprintf(msgEndStopped, sum.Succeeded, sum.Failed, sum.Remaining+sum.Postponed), Hint: msgEndStoppedHint}
	case sum.NothingToDo:
		return &EndView{Level: "ok", Text: msgEndNothing}
	case sum.Succeeded == 0 && sum.Failed == 0 && sum.Postponed > 0:
		return &EndView{Level: "warn", Text: fmt.Sprintf(msgEndOnlyLeft, sum.Postponed), Hint: msgEndFailHint}
	}
	v := &EndView{Level: "ok", Text: fmt.Sprintf(msgEndDone, sum.Succeeded, sum.Failed)}
	if sum.Postponed > 0 {
		v.Text = fmt.Sprintf(msgEndDoneLeft, sum.Succeeded, sum.Failed, sum.Postponed)
		v.Level = "warn"
		v.Hint = msgEndFailHint
	}
	if sum.Failed > 0 {
		v.Level = "fail"
		v.Hint = msgEndFailHint
	}
	return v
}
