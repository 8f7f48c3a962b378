package source

import (
	"os"
	"sync"
	"time"
)

// Prober tells whether folders answer (the web UI's index list, opening
// a hit through a network share). A stat of a network folder can hang
// for a long time and cannot be cancelled, so each runs in a goroutine of
// its own that may outlive the request that started it. At most one runs
// per path: later requests wait on the same one, so a hung share costs
// one goroutine, not one per poll of every open page. The zero Prober is
// ready to use.
type Prober struct {
	stat func(string) (os.FileInfo, error) // nil: os.Stat (tests block it)

	mu       sync.Mutex
	inflight map[string]*probeCall
}

// probeCall is one stat; ok is set before done is closed.
type probeCall struct {
	done chan struct{}
	ok   bool
}

// start returns the stat of path in flight, starting one if none is.
func (p *Prober) start(path string) *probeCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.inflight[path]; c != nil {
		return c
	}
	if p.inflight == nil {
		p.inflight = map[string]*probeCall{}
	}
	c := &probeCall{done: make(chan struct{})}
	p.inflight[path] = c
	go func() {
		stat := p.stat
		if stat == nil {
			stat = os.Stat
		}
		st, err := stat(path)
		c.ok = err == nil && st.IsDir()
		p.mu.Lock()
		delete(p.inflight, path)
		p.mu.Unlock()
		close(c.done)
	}()
	return c
}

// Reach is what a check found of a folder, as the index list shows it.
type Reach string

// The answers of Check.
const (
	ReachOK       Reach = "ok"       // the folder exists
	ReachMissing  Reach = "missing"  // no folder there (or not a folder)
	ReachChecking Reach = "checking" // no answer yet: a share gone silent
)

// Check stats every folder in parallel and waits at most wait in all:
// ReachOK, ReachMissing, or ReachChecking for a folder still silent.
func (p *Prober) Check(paths []string, wait time.Duration) []Reach {
	calls := make([]*probeCall, len(paths))
	for i, path := range paths {
		calls[i] = p.start(path)
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	out := make([]Reach, len(paths))
	waiting := true
	for i, c := range calls {
		if waiting {
			select {
			case <-c.done:
			case <-deadline.C:
				waiting = false
			}
		}
		select {
		case <-c.done:
			out[i] = ReachMissing
			if c.ok {
				out[i] = ReachOK
			}
		default:
			out[i] = ReachChecking
		}
	}
	return out
}

// Reached waits up to wait for the stat of a folder: answered is false
// when the folder has not answered in time (a share gone silent), ok
// whether it answered as a folder. It is a Probe.
func (p *Prober) Reached(path string, wait time.Duration) (ok, answered bool) {
	c := p.start(path)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-c.done:
		return c.ok, true
	case <-t.C:
		return false, false
	}
}
