package indexing

import (
	"errors"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/workspace"
)

// lockRetry is how long the background watcher waits before it tries the
// workspace lock again when another process holds it.
const lockRetry = 30 * time.Second

// Texts of the 自動で更新する part of the index page.
const (
	msgAutoOff     = "自動で更新しません。"
	msgAutoWaiting = "ほかのインデックス作成が終わるのを待っています。"
	msgAutoPaused  = "手動のインデックス作成が終わったら、監視を再開します。"
)

// AutoView is the state of 自動で更新する (the background watcher) for
// the index page.
type AutoView struct {
	On      bool   `json:"on"`      // the setting
	Running bool   `json:"running"` // the watcher runs and holds the lock
	Doing   string `json:"doing"`   // what it is doing (watch.Doing*)
	// LastChange and LastChangeAt: the last change it picked up.
	LastChange   string         `json:"lastChange,omitempty"`
	LastChangeAt string         `json:"lastChangeAt,omitempty"`
	Rescan       []watch.Rescan `json:"rescan,omitempty"`
	Error        string         `json:"error,omitempty"`
}

// Auto runs the watcher in the background while the setting is on.
// A run started by hand halts it first (the watcher's run stops as on the
// stop button and releases the lock) and resumes it afterwards.
type Auto struct {
	rn       *Runner
	settings func() (*workspace.Settings, error)

	mu     sync.Mutex
	stop   chan struct{} // non-nil while a watcher goroutine runs
	done   chan struct{}
	on     bool // the setting, as last read by sync
	paused int  // runs by hand in progress
	closed bool // Shutdown
	st     watch.Status
	held   bool // the watcher holds the lock
	err    string
}

// Sync starts or halts the watcher to match the setting.
func (a *Auto) Sync() {
	st, err := a.settings()
	on := err == nil && st.AutoUpdate
	a.mu.Lock()
	a.on = on
	a.mu.Unlock()
	if !on {
		a.halt()
		a.rn.touch()
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stop != nil || a.paused > 0 || a.closed {
		return
	}
	a.stop, a.done = make(chan struct{}), make(chan struct{})
	go a.loop(a.stop, a.done)
}

// halt stops the watcher and waits until it has released the lock.
func (a *Auto) halt() {
	a.mu.Lock()
	stop, done := a.stop, a.done
	if stop != nil {
		close(stop)
		a.stop = nil
	}
	a.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Restart makes a running watcher start over with the settings as they
// are now (a folder added, renamed, checked or removed).
func (a *Auto) Restart() {
	a.mu.Lock()
	running := a.stop != nil
	a.mu.Unlock()
	if running {
		a.halt()
		a.Sync()
	}
}

// Pause halts the watcher for a run by hand; Resume undoes it.
func (a *Auto) Pause() {
	a.mu.Lock()
	a.paused++
	a.mu.Unlock()
	a.halt()
}

// Resume undoes a Pause.
func (a *Auto) Resume() {
	a.mu.Lock()
	a.paused--
	a.mu.Unlock()
	a.Sync()
}

// Close halts the watcher for good (the server shuts down).
func (a *Auto) Close() {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.halt()
}

// holds reports whether this server's watcher holds the workspace lock.
func (a *Auto) holds() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.held
}

func (a *Auto) loop(stop, done chan struct{}) {
	defer close(done)
	for {
		_, err := a.watch(stop)
		a.mu.Lock()
		a.held = false
		a.err = ""
		var le *workspace.LockError
		if errors.As(err, &le) {
			a.err = msgAutoWaiting
		} else if err != nil {
			a.err = err.Error()
		}
		a.mu.Unlock()
		a.rn.touch()
		select {
		case <-stop:
			return
		case <-time.After(lockRetry):
		}
	}
}

func (a *Auto) watch(stop chan struct{}) (*indexer.Summary, error) {
	settings, err := a.settings()
	if err != nil {
		return nil, err
	}
	return watch.Watch(watch.Options{
		Index:     indexer.NewOptions(a.rn.ws, settings, a.rn.launch),
		Settings:  a.settings,
		FullEvery: time.Duration(settings.WatchFullRescanHours) * time.Hour,
		Stop:      stop,
		Observe: func(st watch.Status) {
			a.mu.Lock()
			a.st, a.held = st, true
			a.mu.Unlock()
			a.rn.touch()
		},
	})
}

// View is the index page's snapshot.
func (a *Auto) View() *AutoView {
	a.mu.Lock()
	defer a.mu.Unlock()
	v := &AutoView{On: a.on, Running: a.held, Error: a.err}
	switch {
	case !a.on:
		v.Doing = msgAutoOff
	case a.held:
		v.Doing = a.st.Doing
		v.LastChange = a.st.LastChange
		if !a.st.LastChangeAt.IsZero() {
			v.LastChangeAt = a.st.LastChangeAt.Format("2006/01/02 15:04:05")
		}
		v.Rescan = a.st.Rescan
	case a.paused > 0:
		v.Doing = msgAutoPaused
	case a.err == "":
		v.Doing = watch.DoingStart
	}
	return v
}
