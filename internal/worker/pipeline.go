package worker

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Depth is how many requests a slot keeps in its worker's pipe: the one
// being extracted and the next, so the worker never waits while the
// coordinator records a result (tebunko's lane capacity of 2).
const Depth = 2

// Pipeline serves the requests from in until in is closed, keeping up to
// Depth of them in the worker's pipe, and reports each outcome through
// done, in order. The deadline and the memory cap apply to the request the
// worker is working on: its deadline starts when the previous answer
// arrives. When the worker is killed (deadline, memory cap) or dies, the
// request it was working on gets that outcome and the requests queued
// behind it are sent again to a fresh worker. When abandon is closed,
// every request in the pipe, and every later one, ends Stopped.
func (s *Slot) Pipeline(in <-chan Request, done func(Request, Result), abandon <-chan struct{}) {
	defer s.Close()
	p := &pipe{s: s, done: done}
	defer p.disarm()
	var memTick <-chan time.Time
	if s.cfg.MemLimit > 0 && s.rssOK {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		memTick = t.C
	}
	abandoned := false
	for {
		inC := in
		if len(p.queue) >= Depth || in == nil {
			inC = nil
		}
		if in == nil && len(p.queue) == 0 {
			return
		}
		var lines <-chan []byte
		var exited <-chan struct{}
		if s.p != nil {
			lines, exited = s.p.lines(), s.p.exited()
		}
		select {
		case req, ok := <-inC:
			switch {
			case !ok:
				in = nil
			case abandoned:
				done(req, Result{Outcome: Stopped, Detail: "stopped"})
			default:
				p.take(req)
			}
		case line := <-lines:
			p.answer(line)
		case <-exited:
			p.ended()
		case <-p.deadlineC:
			s.kill()
			p.fail(Result{Outcome: TimedOut, Msg: MsgTimeout(s.cfg.Timeout), Detail: "deadline passed"})
		case <-memTick:
			p.checkMemory()
		case <-abandon:
			abandon = nil
			abandoned = true
			p.stopAll()
		}
	}
}

// pipe is the state of one Pipeline: the requests in the worker's pipe
// and the deadline of the one at its head.
type pipe struct {
	s         *Slot
	done      func(Request, Result)
	queue     []Request // in the pipe, oldest (the one being worked on) first
	deadline  *time.Timer
	deadlineC <-chan time.Time
}

// arm starts the deadline of the request at the head of the queue.
func (p *pipe) arm() {
	p.disarm()
	if len(p.queue) > 0 && p.s.cfg.Timeout > 0 {
		p.deadline = time.NewTimer(p.s.cfg.Timeout)
		p.deadlineC = p.deadline.C
	}
}

func (p *pipe) disarm() {
	if p.deadline != nil {
		p.deadline.Stop()
	}
	p.deadline, p.deadlineC = nil, nil
}

// send writes req into a running worker's pipe (starting one if needed);
// a worker that cannot start gives req its outcome, a write that fails
// leaves the outcome to the worker's end.
func (p *pipe) send(req Request) bool {
	s := p.s
	if s.p == nil {
		if err := s.start(); err != nil {
			if f := workspace.WriteFault(err); f != nil {
				p.done(req, Result{Outcome: Faulted, Msg: f.Error(), Detail: err.Error(), Fault: f})
				return false
			}
			p.done(req, Result{Outcome: Crashed, Msg: msgCrashed, Detail: err.Error()})
			return false
		}
	}
	data, _ := json.Marshal(req)
	return s.p.write(append(data, '\n')) == nil
}

// take puts a new request into the pipe.
func (p *pipe) take(req Request) {
	if !p.send(req) {
		if p.s.p != nil {
			// The pipe broke: the worker died; its outcome arrives
			// through exited. Keep the request for the restart.
			p.queue = append(p.queue, req)
		}
		return
	}
	p.queue = append(p.queue, req)
	if len(p.queue) == 1 {
		p.arm()
	}
}

// restart hands the queue (minus the finished head) to a fresh worker.
func (p *pipe) restart() {
	rest := p.queue
	p.queue = nil
	for _, r := range rest {
		if p.send(r) {
			p.queue = append(p.queue, r)
		}
	}
	p.arm()
}

// fail gives the head of the queue res (its worker is gone) and restarts
// the rest.
func (p *pipe) fail(res Result) {
	head := p.queue[0]
	p.queue = p.queue[1:]
	p.done(head, res)
	p.restart()
}

// answer takes one line of the worker's: the result of the request at the
// head of the queue, or a broken worker.
func (p *pipe) answer(line []byte) {
	var resp Response
	if err := json.Unmarshal(line, &resp); err != nil || len(p.queue) == 0 || resp.ID != p.queue[0].ID {
		detail := fmt.Sprintf("bad response %q: %v", line, err)
		p.s.kill()
		if len(p.queue) > 0 {
			p.fail(Result{Outcome: Crashed, Msg: msgCrashed, Detail: detail})
		}
		return
	}
	head := p.queue[0]
	p.queue = p.queue[1:]
	p.arm()
	if resp.Fault != "" {
		p.done(head, faultResult(resp))
		return
	}
	p.done(head, Result{Outcome: Finished, Response: resp})
}

// ended handles the worker's end. The answers it wrote before it ended
// are all in its lines by now: they come first, so a finished file is
// never blamed for the crash of the one after it. (A broken answer among
// them replaces the worker: then the ended one is done with.)
func (p *pipe) ended() {
	s := p.s
	gone := s.p
	for drained := false; !drained && s.p == gone; {
		select {
		case line := <-gone.lines():
			p.answer(line)
		default:
			drained = true
		}
	}
	switch {
	case s.p != gone:
	case len(p.queue) == 0:
		s.kill()
	default:
		p.fail(s.crashed())
	}
}

// checkMemory kills a worker over the memory cap.
func (p *pipe) checkMemory() {
	s := p.s
	if s.p == nil || len(p.queue) == 0 {
		return
	}
	if rss, ok := s.p.rss(); ok && rss > s.cfg.MemLimit {
		s.kill()
		p.fail(Result{Outcome: OutOfMemory, Msg: MsgOutOfMemory, Detail: fmt.Sprintf("worker RSS %d bytes over the cap of %d", rss, s.cfg.MemLimit)})
	}
}

// stopAll kills the worker and ends every request in the pipe Stopped.
func (p *pipe) stopAll() {
	p.s.kill()
	for _, r := range p.queue {
		p.done(r, Result{Outcome: Stopped, Detail: "stopped"})
	}
	p.queue = nil
	p.arm()
}
