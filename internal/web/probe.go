package web

import (
	"os"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// folderProbe checks that crawl roots exist, for the index list. A stat of
// a network folder can hang for a long time and cannot be cancelled, so
// each runs in a goroutine of its own that may outlive the request that
// started it. At most one runs per path: later requests wait on the same
// one, so a hung share costs one goroutine, not one per poll of every
// open page.
type folderProbe struct {
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
func (p *folderProbe) start(path string) *probeCall {
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

// check stats every root in parallel and waits at most folderCheckWait in
// all: ok, missing, or checking for a folder still silent.
func (p *folderProbe) check(roots []workspace.Root) []string {
	calls := make([]*probeCall, len(roots))
	for i, r := range roots {
		calls[i] = p.start(r.Path)
	}
	deadline := time.NewTimer(folderCheckWait)
	defer deadline.Stop()
	out := make([]string, len(roots))
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
			out[i] = probeResult(c.ok)
		default:
			out[i] = "checking"
		}
	}
	return out
}

func probeResult(ok bool) string {
	if ok {
		return "ok"
	}
	return "missing"
}

// reached waits up to wait for the stat of a folder: answered is false
// when the folder has not answered in time (a share gone silent), ok
// whether it answered as a folder.
func (p *folderProbe) reached(path string, wait time.Duration) (ok, answered bool) {
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
