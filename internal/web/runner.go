package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// confirmWait is how long a run waits for the confirmation before it
// declines on its own (reference/gui.md §8: 60 min); a variable only so
// that a test can wait less.
var confirmWait = 60 * time.Minute

// maxLogLines is how many log lines the server keeps at least for late
// subscribers (at most twice as many).
const maxLogLines = 2000

// runner drives at most one indexing run at a time and keeps what the
// browser needs to show it: progress, the pending confirmation, the end
// text and the log lines. Observers of the indexer write here from the
// coordinator goroutine; HTTP handlers read snapshots.
type runner struct {
	s *Server

	mu      sync.Mutex
	cur     *runState // the running run, nil when idle
	end     *EndView  // how the last run of this server ended
	logs    []LogLine // lines of the current or last run
	logNext int       // sequence number of the next line
	changed chan struct{}
	done    chan struct{} // closed when cur ends
	closed  bool          // Shutdown began: no run starts any more
}

// runState is the state of the run in progress.
type runState struct {
	progress indexer.Progress
	rate     indexer.Rate // the same smoothed rate as the terminal's
	stopping bool
	stopCh   chan struct{}
	killCh   chan struct{}
	confirm  *pendingConfirm
	only     []string // OnlyNames of a row's ［取り込む］, nil for every checked index
	// indexes is each index's share of the run once the plan is known
	// (keyed by workspace.FoldKey), nil before: the index table shows
	// 取り込み中 12/40 only where an index has work (issue 32).
	indexes map[string]*IndexRun
}

// LogLine is one line of the run's log as the browser gets it.
type LogLine struct {
	Seq   int    `json:"seq"`
	Text  string `json:"text"`
	Level string `json:"level"` // info, warn, error, good
}

// RunView is a snapshot of the indexing run for the banner and the
// progress display (reference/gui.md §2.1, §3.3).
type RunView struct {
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

	// Auto is 自動で更新する: the background watcher (auto.go).
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

func newRunner(s *Server) *runner {
	return &runner{s: s, changed: make(chan struct{})}
}

// notify wakes every subscriber; call with mu held.
func (rn *runner) notify() {
	close(rn.changed)
	rn.changed = make(chan struct{})
}

// errBusy is returned by start when this server already runs one.
var errBusy = errors.New("web: an indexing run is already going on")

// errClosed is returned by start once the server shuts down: a run
// started then would outlive the server.
var errClosed = errors.New("web: the server is shutting down")

// start begins an indexing run in the background: of the indexes named
// in only, or of every checked one.
func (rn *runner) start(only []string) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.closed {
		return errClosed
	}
	if rn.cur != nil {
		return errBusy
	}
	if rn.s.ws.IsLocked() {
		return &workspace.LockError{Path: rn.s.ws.LockPath()}
	}
	cur := &runState{stopCh: make(chan struct{}), killCh: make(chan struct{}), only: only}
	cur.progress.Phase = indexer.PhaseCrawl
	rn.cur = cur
	rn.end = nil
	rn.logs = nil
	rn.done = make(chan struct{})
	rn.notify()
	go rn.exec(cur, rn.done)
	return nil
}

func (rn *runner) exec(cur *runState, done chan struct{}) {
	defer close(done)
	sum, err := rn.runIndexer(cur)
	end := endView(sum, err)
	rn.mu.Lock()
	rn.cur = nil
	rn.end = end
	rn.notify()
	rn.mu.Unlock()
	rn.s.auto.resume() // paused by handleRunStart
}

// touch wakes the subscribers (the background watcher's state changed).
func (rn *runner) touch() {
	rn.mu.Lock()
	rn.notify()
	rn.mu.Unlock()
}

func (rn *runner) runIndexer(cur *runState) (*indexer.Summary, error) {
	opt := rn.s.opt
	ws := rn.s.ws
	var notices []string
	settings, err := ws.LoadSettings()
	if err != nil {
		var b *workspace.BrokenSettingsError
		if !errors.As(err, &b) {
			return nil, err
		}
		notices = append(notices, b.Error())
	}
	run := indexer.NewOptions(ws, settings, opt.launch())
	run.OnlyNames = cur.only
	run.Stop, run.Kill = cur.stopCh, cur.killCh
	run.Confirm = func(rows []indexer.PlanRow) indexer.Answer { return rn.confirm(cur, rows) }
	run.Notices = notices
	run.Observe = func(ev indexer.Event) { rn.observe(cur, ev) }
	return indexer.Run(run)
}

var levelNames = map[indexer.Level]string{indexer.Info: "info", indexer.Warn: "warn", indexer.Error: "error", indexer.Good: "good"}

// observe records one indexer event; it never blocks for long.
func (rn *runner) observe(cur *runState, ev indexer.Event) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	cur.progress = ev.Progress
	if ev.Outcome != "" && ev.Outcome != indexer.OutcomeStopped && cur.indexes != nil {
		name, _ := ingestlist.SplitRelPath(ev.File)
		if ir := cur.indexes[workspace.FoldKey(name)]; ir != nil && ir.Done < ir.Total {
			ir.Done++
		}
	}
	if ev.Progress.Phase == indexer.PhaseIngest {
		cur.rate.Observe(time.Now(), ev.Progress.Done)
	}
	if ev.Line != "" {
		rn.logs = append(rn.logs, LogLine{Seq: rn.logNext, Text: ev.Line, Level: levelNames[ev.Level]})
		rn.logNext++
		if len(rn.logs) >= 2*maxLogLines { // trim in batches: a long run logs 100,000 lines
			rn.logs = append(rn.logs[:0:0], rn.logs[len(rn.logs)-maxLogLines:]...)
		}
	}
	rn.notify()
}

// confirm shows the plan and waits for the answer, a stop, or the time
// limit (which declines).
func (rn *runner) confirm(cur *runState, rows []indexer.PlanRow) indexer.Answer {
	view := ConfirmView{Rows: rows}
	for _, r := range rows {
		view.Failed += r.Failed
		view.Targets += r.Targets
		if r.Targets > 0 {
			view.Folders++
		}
	}
	pc := &pendingConfirm{view: view, answer: make(chan indexer.Answer, 1)}
	rn.mu.Lock()
	cur.confirm = pc
	rn.notify()
	rn.mu.Unlock()
	defer func() {
		rn.mu.Lock()
		cur.confirm = nil
		rn.notify()
		rn.mu.Unlock()
	}()
	t := time.NewTimer(confirmWait)
	defer t.Stop()
	select {
	case a := <-pc.answer:
		rn.planned(cur, rows, a)
		return a
	case <-cur.stopCh:
	case <-t.C:
		return indexer.Answer{TimedOut: true}
	}
	return indexer.Answer{}
}

// answer delivers the confirmation's answer; false when none is pending.
func (rn *runner) answer(a indexer.Answer) bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.cur == nil || rn.cur.confirm == nil {
		return false
	}
	select {
	case rn.cur.confirm.answer <- a:
		return true
	default:
		return false
	}
}

// close refuses every later start and stops the running run.
func (rn *runner) close() {
	rn.mu.Lock()
	rn.closed = true
	rn.mu.Unlock()
	rn.stop(false)
}

// stop asks the running run to stop; kill skips the grace. It reports
// whether a run was going on.
func (rn *runner) stop(kill bool) bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	cur := rn.cur
	if cur == nil {
		return false
	}
	if !cur.stopping {
		cur.stopping = true
		close(cur.stopCh)
	} else if kill {
		select {
		case <-cur.killCh:
		default:
			close(cur.killCh)
		}
	}
	rn.notify()
	return true
}

// wait blocks until the running run (if any) has ended or ctx is done.
func (rn *runner) wait(ctx context.Context) {
	rn.mu.Lock()
	done := rn.done
	running := rn.cur != nil
	rn.mu.Unlock()
	if !running || done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// otherHolds reports whether another process holds the workspace lock.
// It probes only while this server runs nothing, under mu, so the probe
// (which takes the lock for an instant) never races this server's own
// start.
func (rn *runner) otherHolds() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.cur == nil && !rn.s.auto.holds() && rn.s.ws.IsLocked()
}

// running reports whether this server runs an indexing run now.
func (rn *runner) running() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.cur != nil
}

// view returns the current snapshot and the channel closed at the next
// change. locked tells whether another process holds the lock (checked by
// the caller, outside mu).
func (rn *runner) view(now time.Time) (RunView, <-chan struct{}) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	v := RunView{End: rn.end, LogNext: rn.logNext, Percent: -1}
	if cur := rn.cur; cur != nil {
		fillProgress(&v, cur, now)
	}
	return v, rn.changed
}

// logsSince returns the kept lines with Seq >= from.
func (rn *runner) logsSince(from int) []LogLine {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	var out []LogLine
	for _, l := range rn.logs {
		if l.Seq >= from {
			out = append(out, l)
		}
	}
	return out
}

// fillProgress composes the banner texts (reference/gui.md §3.3).
func fillProgress(v *RunView, cur *runState, now time.Time) {
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
