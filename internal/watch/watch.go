package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Options configure a watcher.
type Options struct {
	// Index is the template of every run: Workspace, Body, workers,
	// deadlines, memory cap, worker executable. Settings, Paths, Lock,
	// Stop, Kill and Notices are set by the watcher.
	Index indexer.Options
	// Settings reads settings.json before every run (roots may have been
	// edited); nil reads Index.Workspace's.
	Settings func() (*workspace.Settings, error)

	Debounce  time.Duration // quiet time after the last event; 0 = 500 ms
	MaxDelay  time.Duration // longest wait while events keep coming; 0 = 5 s
	FullEvery time.Duration // full rescan period; 0 = 24 hours, <0 = only at start
	PollEvery time.Duration // rescan period of a root in rescan mode; 0 = 10 min

	// Stop ends the watcher (a run in progress stops as `index` does on
	// Ctrl-C); Kill skips that run's grace.
	Stop, Kill <-chan struct{}
	// Observe is called with every change of the status; Logf receives
	// the watcher's own lines (rescan mode, errors of a run).
	Observe func(Status)
	Logf    func(format string, args ...any)
	// Run is a seam (tests count runs): nil is indexer.Run.
	Run func(indexer.Options) (*indexer.Summary, error)
	// NoEvents is a test seam: roots it names get no watches and start in
	// rescan mode with ReasonNoEvents.
	NoEvents func(workspace.Root) bool
	// Overflow is a test seam: a send acts as the kernel's queue overflow.
	Overflow <-chan struct{}
}

// ErrNoEnabled: nothing to watch (the indexer's seed message).
var ErrNoEnabled = errors.New(indexer.MsgNoEnabled)

// watcher is the state of Watch's goroutine.
type watcher struct {
	opt   Options
	ws    *workspace.Workspace
	lock  *workspace.Lock
	fsw   *fsnotify.Watcher
	roots []workspace.Root
	dirs  map[string]bool // watched folders (OS paths)
	st    Status

	pending   map[string]*pathSet // index name → paths to run
	first     time.Time           // first event of the pending batch
	lastEvent time.Time
	armed     bool   // the debounce timer is set
	last      string // last path named by an event
	notices   []string
	rescan    map[string]*Rescan // index name → rescan mode
	nextPoll  time.Time
	nextFull  time.Time
}

// Watch runs until Options.Stop. It takes the workspace lock first (a
// *workspace.LockError when another run holds it), runs a full indexing
// run, then one run per debounced batch of events. The returned summary
// is the last run's.
func Watch(opt Options) (last *indexer.Summary, err error) {
	if opt.Debounce <= 0 {
		opt.Debounce = 500 * time.Millisecond
	}
	if opt.MaxDelay <= 0 {
		opt.MaxDelay = 5 * time.Second
	}
	if opt.FullEvery == 0 {
		opt.FullEvery = 24 * time.Hour
	}
	if opt.PollEvery <= 0 {
		opt.PollEvery = 10 * time.Minute
	}
	if opt.Run == nil {
		opt.Run = indexer.Run
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	ws := opt.Index.Workspace
	if opt.Settings == nil {
		opt.Settings = ws.LoadSettings
	}
	lock, err := ws.Lock()
	if err != nil {
		if f := workspace.WriteFault(err); f != nil {
			return nil, f
		}
		return nil, err
	}
	defer lock.Release()
	host, _ := os.Hostname()
	w := &watcher{opt: opt, ws: ws, lock: lock, dirs: map[string]bool{}, pending: map[string]*pathSet{},
		rescan: map[string]*Rescan{},
		st:     Status{PID: os.Getpid(), Host: host, Started: time.Now(), Doing: DoingStart}}
	defer workspace.Remove(StatePath(ws))
	w.publish()

	s, err := opt.Settings()
	if s == nil {
		return nil, err
	}
	for _, r := range s.Roots {
		if r.IsEnabled() {
			w.roots = append(w.roots, r)
		}
	}
	if len(w.roots) == 0 {
		if len(s.Roots) == 0 {
			return nil, &indexer.FatalError{Msg: indexer.MsgNoRoots}
		}
		return nil, &indexer.FatalError{Msg: indexer.MsgNoEnabled}
	}
	w.fsw, err = fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	defer w.fsw.Close()
	for _, r := range w.roots {
		w.watchRoot(r)
	}
	w.logf(msgWatching, len(w.roots), len(w.dirs))

	// The full run at start (it also recovers what a killed run left).
	last, err = w.run(nil, DoingFull)
	if err != nil || w.stopped() {
		return last, err
	}
	return w.loop(last)
}

func (w *watcher) stopped() bool {
	select {
	case <-w.opt.Stop:
		return true
	default:
		return false
	}
}

func (w *watcher) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	w.opt.Logf("%s", line)
	w.notices = append(w.notices, line)
}

func (w *watcher) publish() {
	st := w.st
	for _, r := range w.rescan {
		st.Rescan = append(st.Rescan, *r)
	}
	sortRescan(st.Rescan)
	writeStatus(w.ws, st) // best effort: the state file is informative only
	if w.opt.Observe != nil {
		w.opt.Observe(st)
	}
}

// loop waits for events and timers; each batch becomes one run.
func (w *watcher) loop(last *indexer.Summary) (*indexer.Summary, error) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	tick := time.NewTicker(w.tickEvery())
	defer tick.Stop()
	now := time.Now()
	w.nextPoll = now.Add(w.opt.PollEvery)
	if w.opt.FullEvery > 0 {
		w.nextFull = now.Add(w.opt.FullEvery)
	}
	w.st.Doing = DoingWait
	w.publish()
	for {
		select {
		case <-w.opt.Stop:
			return last, nil
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return last, nil
			}
			if w.event(ev) {
				w.arm(timer)
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return last, nil
			}
			w.watchError(err)
			w.arm(timer)
		case <-w.opt.Overflow:
			w.watchError(fsnotify.ErrEventOverflow)
			w.arm(timer)
		case <-tick.C:
			if w.timers(time.Now()) {
				w.arm(timer)
			}
		case <-timer.C:
			w.armed = false
			if len(w.pending) == 0 {
				continue
			}
			// Quiet for Debounce since the last event, or MaxDelay since
			// the first: a file saved in several writes is one change, and
			// events that never stop still get runs.
			if wait := w.opt.Debounce - time.Since(w.quietSince()); wait > 0 && time.Since(w.first) < w.opt.MaxDelay {
				timer.Reset(min(wait, w.opt.MaxDelay-time.Since(w.first)))
				w.armed = true
				continue
			}
			paths := w.take()
			sum, err := w.run(paths, DoingRun)
			if sum != nil {
				last = sum
			}
			if err != nil && !isRunError(err) {
				return last, err
			}
			if w.stopped() {
				return last, nil
			}
			w.drain()
			if len(w.pending) > 0 {
				w.arm(timer)
			}
		}
	}
}

// tickEvery is how often the timers of rescans are checked.
func (w *watcher) tickEvery() time.Duration {
	d := w.opt.PollEvery / 4
	if d > time.Minute {
		d = time.Minute
	}
	if d < 10*time.Millisecond {
		d = 10 * time.Millisecond
	}
	return d
}

// timers queues the periodic full rescan and the rescans of roots in
// rescan mode; true when something was queued.
func (w *watcher) timers(now time.Time) bool {
	queued := false
	if !w.nextFull.IsZero() && !now.Before(w.nextFull) {
		for _, r := range w.roots {
			w.queue(r.Name, "")
		}
		w.nextFull = now.Add(w.opt.FullEvery)
		queued = true
	}
	if len(w.rescan) > 0 && !now.Before(w.nextPoll) {
		for _, r := range w.roots {
			rs := w.rescan[workspace.FoldKey(r.Name)]
			if rs == nil {
				continue
			}
			if rs.Reason == ReasonMissing {
				if st, err := os.Stat(r.Path); err != nil || !st.IsDir() {
					continue // still gone: its rows stay as they are
				}
				delete(w.rescan, workspace.FoldKey(r.Name))
				w.watchRoot(r)
				if w.rescan[workspace.FoldKey(r.Name)] == nil {
					w.logf(msgBackToEvents, r.Name, r.Path)
				}
				w.publish()
			}
			w.queue(r.Name, "")
			queued = true
		}
		w.nextPoll = now.Add(w.opt.PollEvery)
	}
	return queued
}

// arm starts the debounce timer for the pending batch.
// Once armed, the timer's own case extends the wait; events only record
// their time (queue), so a steady stream cannot postpone past MaxDelay.
func (w *watcher) arm(t *time.Timer) {
	if len(w.pending) == 0 || w.armed {
		return
	}
	t.Reset(w.opt.Debounce)
	w.armed = true
}

// drain takes the events that arrived during a run into the pending batch
// without blocking.
func (w *watcher) drain() {
	for {
		select {
		case ev := <-w.fsw.Events:
			w.event(ev)
		case err := <-w.fsw.Errors:
			w.watchError(err)
		default:
			return
		}
	}
}

// isRunError: errors of one run that the watcher outlives (a root lost
// mid-run, a workspace fault, a fatal run error): logged, and the next
// batch tries again.
func isRunError(err error) bool {
	var lock *workspace.LockError
	return !errors.As(err, &lock)
}

// run performs one indexing run over paths (nil: every enabled root).
func (w *watcher) run(paths map[string][]string, doing string) (*indexer.Summary, error) {
	s, err := w.opt.Settings()
	if s == nil {
		w.logf("%v", err)
		return nil, nil
	}
	opt := w.opt.Index
	opt.Settings = s
	opt.Paths = paths
	opt.Lock = w.lock
	opt.Stop, opt.Kill = w.opt.Stop, w.opt.Kill
	opt.Notices = append(append([]string{}, opt.Notices...), w.notices...)
	w.notices = nil
	w.st.Doing = doing
	w.publish()
	sum, err := w.opt.Run(opt)
	// The run's ingest list and plan are garbage now: give the memory
	// back, so an idle watcher over a large root stays small.
	debug.FreeOSMemory()
	w.st.Runs++
	w.st.Doing = DoingWait
	if paths == nil {
		w.st.LastFull = time.Now()
	} else if w.last != "" {
		w.st.LastChange, w.st.LastChangeAt = w.last, time.Now()
	}
	w.st.LastError = ""
	if err != nil {
		w.st.LastError = err.Error()
		w.opt.Logf("%s", err.Error())
	}
	w.publish()
	return sum, err
}

// watchRoot adds a watch on every folder of a root, or puts the root in
// rescan mode with the reason.
func (w *watcher) watchRoot(r workspace.Root) {
	switch st, err := os.Stat(r.Path); {
	case err != nil || !st.IsDir():
		w.toRescan(r, ReasonMissing)
		return
	case w.opt.NoEvents != nil && w.opt.NoEvents(r):
		w.toRescan(r, ReasonNoEvents)
		return
	}
	if fsName := networkFS(r.Path); fsName != "" {
		w.toRescan(r, ReasonNetwork+"（"+fsName+"）")
		return
	}
	err := filepath.WalkDir(r.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder: the crawl reports it
		}
		if !d.IsDir() {
			return nil
		}
		if p != r.Path && (strings.HasPrefix(d.Name(), ".") || workspace.IsWithin(p, w.ws.Root) || workspace.IsWorkspace(p)) {
			return filepath.SkipDir
		}
		return w.add(p)
	})
	if err != nil {
		w.toRescan(r, reasonOf(err))
	}
}

// add watches one folder.
func (w *watcher) add(dir string) error {
	if w.dirs[dir] {
		return nil
	}
	if err := w.fsw.Add(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone already: its event comes
		}
		return err
	}
	w.dirs[dir] = true
	return nil
}

func reasonOf(err error) string {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
		return ReasonLimit
	}
	return ReasonWatchErr + "（" + err.Error() + "）"
}

// toRescan puts a root in rescan mode (once per reason), dropping its
// watches.
func (w *watcher) toRescan(r workspace.Root, reason string) {
	k := workspace.FoldKey(r.Name)
	if old := w.rescan[k]; old != nil && old.Reason == reason {
		return
	}
	for d := range w.dirs {
		if workspace.IsWithin(d, r.Path) {
			w.fsw.Remove(d)
			delete(w.dirs, d)
		}
	}
	w.rescan[k] = &Rescan{Name: r.Name, Path: r.Path, Reason: reason, Since: time.Now()}
	w.logf(msgRescanMode, r.Name, r.Path, reason, w.opt.PollEvery)
	w.publish()
}

// watchError handles the watcher's error channel: an overflowed queue
// lost events of unknown roots, so every root watched by events falls
// back to rescans and is rescanned now.
func (w *watcher) watchError(err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		w.opt.Logf("%s%v", ReasonWatchErr, err)
		return
	}
	for _, r := range w.roots {
		if w.rescan[workspace.FoldKey(r.Name)] == nil {
			w.toRescan(r, ReasonOverflow)
			w.queue(r.Name, "")
		}
	}
}
