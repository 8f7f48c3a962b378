package indexing

import (
	"context"
	"errors"
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

// Runner drives at most one indexing run at a time and keeps what the
// browser needs to show it: progress, the pending confirmation, the end
// text and the log lines. Observers of the indexer write here from the
// coordinator goroutine; HTTP handlers read snapshots.
type Runner struct {
	ws     *workspace.Workspace
	launch indexer.Launch
	// Auto is 自動で更新する, the background watcher: it gives way to a
	// run by hand (Pause before Start, resumed when the run ends).
	Auto *Auto

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

// New returns the runner of a server's workspace: runs start worker
// processes with launch; settings reads settings.json as the server does
// (a broken file read with its defaults).
func New(ws *workspace.Workspace, launch indexer.Launch, settings func() (*workspace.Settings, error)) *Runner {
	rn := &Runner{ws: ws, launch: launch, changed: make(chan struct{})}
	rn.Auto = &Auto{rn: rn, settings: settings}
	return rn
}

// notify wakes every subscriber; call with mu held.
func (rn *Runner) notify() {
	close(rn.changed)
	rn.changed = make(chan struct{})
}

// ErrBusy is returned by Start when this server already runs one.
var ErrBusy = errors.New("indexing: an indexing run is already going on")

// ErrClosed is returned by Start once the server shuts down: a run
// started then would outlive the server.
var ErrClosed = errors.New("indexing: the server is shutting down")

// Start begins an indexing run in the background: of the indexes named
// in only, or of every checked one.
func (rn *Runner) Start(only []string) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.closed {
		return ErrClosed
	}
	if rn.cur != nil {
		return ErrBusy
	}
	if rn.ws.IsLocked() {
		return &workspace.LockError{Path: rn.ws.LockPath()}
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

func (rn *Runner) exec(cur *runState, done chan struct{}) {
	defer close(done)
	sum, err := rn.runIndexer(cur)
	end := endView(sum, err)
	rn.mu.Lock()
	rn.cur = nil
	rn.end = end
	rn.notify()
	rn.mu.Unlock()
	rn.Auto.Resume() // paused by the caller of Start
}

// touch wakes the subscribers (the background watcher's state changed).
func (rn *Runner) touch() {
	rn.mu.Lock()
	rn.notify()
	rn.mu.Unlock()
}

func (rn *Runner) runIndexer(cur *runState) (*indexer.Summary, error) {
	ws := rn.ws
	var notices []string
	settings, err := ws.LoadSettings()
	if err != nil {
		var b *workspace.BrokenSettingsError
		if !errors.As(err, &b) {
			return nil, err
		}
		notices = append(notices, b.Error())
	}
	run := indexer.NewOptions(ws, settings, rn.launch)
	run.OnlyNames = cur.only
	run.Stop, run.Kill = cur.stopCh, cur.killCh
	run.Confirm = func(rows []indexer.PlanRow) indexer.Answer { return rn.confirm(cur, rows) }
	run.Notices = notices
	run.Observe = func(ev indexer.Event) { rn.observe(cur, ev) }
	return indexer.Run(run)
}

var levelNames = map[indexer.Level]string{indexer.Info: "info", indexer.Warn: "warn", indexer.Error: "error", indexer.Good: "good"}

// observe records one indexer event; it never blocks for long.
func (rn *Runner) observe(cur *runState, ev indexer.Event) {
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
func (rn *Runner) confirm(cur *runState, rows []indexer.PlanRow) indexer.Answer {
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

// Answer delivers the confirmation's answer; false when none is pending.
func (rn *Runner) Answer(a indexer.Answer) bool {
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

// Close refuses every later start and stops the running run.
func (rn *Runner) Close() {
	rn.mu.Lock()
	rn.closed = true
	rn.mu.Unlock()
	rn.Stop(false)
}

// Stop asks the running run to stop; kill skips the grace. It reports
// whether a run was going on.
func (rn *Runner) Stop(kill bool) bool {
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

// Wait blocks until the running run (if any) has ended or ctx is done.
func (rn *Runner) Wait(ctx context.Context) {
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

// OtherHolds reports whether another process holds the workspace lock.
// It probes only while this server runs nothing, under mu, so the probe
// (which takes the lock for an instant) never races this server's own
// start.
func (rn *Runner) OtherHolds() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.cur == nil && !rn.Auto.holds() && rn.ws.IsLocked()
}

// Running reports whether this server runs an indexing run now.
func (rn *Runner) Running() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.cur != nil
}

// View returns the current snapshot and the channel closed at the next
// change. Whether another process holds the lock (OtherHolds) and the
// watcher's state (Auto.View) are the caller's to add, outside mu.
func (rn *Runner) View(now time.Time) (View, <-chan struct{}) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	v := View{End: rn.end, LogNext: rn.logNext, Percent: -1}
	if cur := rn.cur; cur != nil {
		fillProgress(&v, cur, now)
	}
	return v, rn.changed
}

// LogsSince returns the kept lines with Seq >= from.
func (rn *Runner) LogsSince(from int) []LogLine {
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
