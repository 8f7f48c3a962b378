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
	var queue []Request // in the pipe, oldest (the one being worked on) first
	var deadline *time.Timer
	var deadlineC <-chan time.Time
	arm := func() {
		if deadline != nil {
			deadline.Stop()
		}
		deadline, deadlineC = nil, nil
		if len(queue) > 0 && s.cfg.Timeout > 0 {
			deadline = time.NewTimer(s.cfg.Timeout)
			deadlineC = deadline.C
		}
	}
	defer func() {
		if deadline != nil {
			deadline.Stop()
		}
	}()
	var memTick <-chan time.Time
	if s.cfg.MemLimit > 0 && s.rssOK {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		memTick = t.C
	}
	abandoned := false
	// send writes req into a running worker's pipe (starting one if
	// needed); on failure the worker is treated as crashed.
	send := func(req Request) bool {
		if s.p == nil {
			if err := s.start(); err != nil {
				if f := workspace.WriteFault(err); f != nil {
					done(req, Result{Outcome: Faulted, Msg: f.Error(), Detail: err.Error(), Fault: f})
					return false
				}
				done(req, Result{Outcome: Crashed, Msg: msgCrashed + "（詳細: " + err.Error() + "）", Detail: err.Error()})
				return false
			}
		}
		data, _ := json.Marshal(req)
		if err := s.p.write(append(data, '\n')); err != nil {
			return false
		}
		return true
	}
	// restart hands the queue (minus the finished head) to a fresh worker.
	restart := func() {
		rest := queue
		queue = nil
		for _, r := range rest {
			if send(r) {
				queue = append(queue, r)
			}
		}
		arm()
	}
	fail := func(res Result) {
		head := queue[0]
		queue = queue[1:]
		done(head, res)
		restart()
	}
	// answer takes one line of the worker's: the result of the request at
	// the head of the queue, or a broken worker.
	answer := func(line []byte) {
		var resp Response
		if err := json.Unmarshal(line, &resp); err != nil || len(queue) == 0 || resp.ID != queue[0].ID {
			detail := fmt.Sprintf("bad response %q: %v", line, err)
			s.kill()
			if len(queue) > 0 {
				fail(Result{Outcome: Crashed, Msg: msgCrashed, Detail: detail})
			}
			return
		}
		head := queue[0]
		queue = queue[1:]
		arm()
		if resp.Fault != "" {
			done(head, faultResult(resp))
			return
		}
		done(head, Result{Outcome: Finished, Response: resp})
	}
	for {
		inC := in
		if len(queue) >= Depth || in == nil {
			inC = nil
		}
		if in == nil && len(queue) == 0 {
			return
		}
		var lines <-chan []byte
		var exited <-chan struct{}
		if s.p != nil {
			lines, exited = s.p.lines(), s.p.exited()
		}
		select {
		case req, ok := <-inC:
			if !ok {
				in = nil
				continue
			}
			if abandoned {
				done(req, Result{Outcome: Stopped, Detail: "stopped"})
				continue
			}
			if !send(req) {
				if s.p != nil {
					// The pipe broke: the worker died; its outcome arrives
					// through exited. Keep the request for the restart.
					queue = append(queue, req)
				}
				continue
			}
			queue = append(queue, req)
			if len(queue) == 1 {
				arm()
			}
		case line := <-lines:
			answer(line)
		case <-exited:
			// The answers the worker wrote before it ended are all in lines
			// by now: they come first, so a finished file is never blamed
			// for the crash of the one after it.
			// (A broken answer among them replaces the worker: then the
			// ended one is done with.)
			ended := s.p
			for drained := false; !drained && s.p == ended; {
				select {
				case line := <-ended.lines():
					answer(line)
				default:
					drained = true
				}
			}
			if s.p != ended {
				continue
			}
			if len(queue) == 0 {
				s.kill()
				continue
			}
			fail(s.crashed())
		case <-deadlineC:
			s.kill()
			fail(Result{Outcome: TimedOut, Msg: MsgTimeout(s.cfg.Timeout), Detail: "deadline passed"})
		case <-memTick:
			if s.p == nil || len(queue) == 0 {
				continue
			}
			if rss, ok := s.p.rss(); ok && rss > s.cfg.MemLimit {
				s.kill()
				fail(Result{Outcome: OutOfMemory, Msg: MsgOutOfMemory, Detail: fmt.Sprintf("worker RSS %d bytes over the cap of %d", rss, s.cfg.MemLimit)})
			}
		case <-abandon:
			abandon = nil
			abandoned = true
			s.kill()
			for _, r := range queue {
				done(r, Result{Outcome: Stopped, Detail: "stopped"})
			}
			queue = nil
			arm()
		}
	}
}
