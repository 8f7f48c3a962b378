package worker

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Depth is how many requests a slot keeps in its worker's pipe at most.
// The coordinator hands a slot files in groups: it fills the pipe, and
// fills it again once half of it is answered (package indexer); the worker
// answers the files of a group that follow each other in one write
// (Serve). A small file used to cost both processes a wake-up of their
// own, a pipe write each way and the Go runtime's thread hand-offs around
// them: a quarter of the CPU of a build of 20,000 files of a few KB
// (issue 35). tebunko's lanes held 2.
const Depth = 8

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
			p.deadlineC = nil
			p.timedOut()
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
	// due is when the head's deadline fires; ocrExtended says that an
	// OCR page's allowance moved it past the file's own deadline.
	due         time.Time
	ocrExtended bool
	// frame holds the inline places the worker sent for the head, until
	// its Response (protocol.go, Response.Places).
	frame []byte
}

// arm starts the deadline of the request at the head of the queue.
func (p *pipe) arm() {
	p.disarm()
	if len(p.queue) > 0 && p.s.cfg.Timeout > 0 {
		p.setDeadline(time.Now().Add(p.s.cfg.Timeout))
		p.ocrExtended = false
	}
}

func (p *pipe) setDeadline(due time.Time) {
	if p.deadline != nil {
		p.deadline.Stop()
	}
	p.due = due
	p.deadline = time.NewTimer(time.Until(due))
	p.deadlineC = p.deadline.C
}

// extendForOCR gives the OCR page about to start at least the per-page
// allowance (issue 29): a long scan is not failed for its length, while
// a page that hangs is still killed once the allowance and the file's own
// deadline have both passed.
func (p *pipe) extendForOCR() {
	if p.deadline == nil {
		return
	}
	per := p.s.cfg.OCRPageTimeout
	if per <= 0 {
		per = DefaultOCRPageTimeout
	}
	if due := time.Now().Add(per); due.After(p.due) {
		p.setDeadline(due)
		p.ocrExtended = true
	}
}

// prepare holds the head's deadline off while its reader's engine is
// prepared once per machine (issue 33: the PDF engine's compile, seconds
// on a slow PC, while another worker may hold the compile lock): at least
// PrepareTimeout from its start, and the file's whole own deadline from
// its end.
func (p *pipe) prepare(started bool) {
	if p.deadline == nil {
		return
	}
	if !started {
		p.arm()
		return
	}
	if due := time.Now().Add(PrepareTimeout); due.After(p.due) {
		p.setDeadline(due)
	}
}

// timedOut handles the head's deadline. The lines the worker wrote before
// it are taken first (pages handed over are kept, an answer that just
// arrived counts); then, if the head is still there and its deadline was
// not moved by them, its worker is killed.
func (p *pipe) timedOut() {
	s := p.s
	if s.p == nil || len(p.queue) == 0 {
		return
	}
	head := p.queue[0].ID
	for gone, drained := s.p, false; !drained && s.p == gone; {
		select {
		case line := <-gone.lines():
			p.answer(line)
		default:
			drained = true
		}
	}
	if len(p.queue) == 0 || p.queue[0].ID != head || s.p == nil {
		return
	}
	if p.deadlineC != nil && time.Now().Before(p.due) {
		return
	}
	msg := MsgTimeout(s.cfg.Timeout)
	if p.ocrExtended {
		per := s.cfg.OCRPageTimeout
		if per <= 0 {
			per = DefaultOCRPageTimeout
		}
		msg = MsgOCRPageTimeout(per)
	}
	s.kill()
	p.fail(Result{Outcome: TimedOut, Msg: msg, Detail: "deadline passed"})
}

func (p *pipe) disarm() {
	if p.deadline != nil {
		p.deadline.Stop()
	}
	p.deadline, p.deadlineC = nil, nil
	p.ocrExtended = false
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
	p.frame = nil
	head := p.queue[0]
	p.queue = p.queue[1:]
	p.done(head, res)
	p.restart()
}

// answer takes one line of the worker's: the result of the request at the
// head of the queue, or a broken worker.
func (p *pipe) answer(line []byte) {
	if len(line) > 0 && line[0] == '#' {
		p.frame = line[1:]
		return
	}
	var wl wireLine
	err := json.Unmarshal(line, &wl)
	resp := wl.Response
	if err == nil && len(p.queue) > 0 && resp.ID == p.queue[0].ID && (wl.OCRPage != nil || wl.OCRProgress != nil || wl.Preparing != nil) {
		p.interim(Interim{ID: resp.ID, OCRPage: wl.OCRPage, OCRProgress: wl.OCRProgress, Preparing: wl.Preparing})
		return
	}
	if err != nil || len(p.queue) == 0 || resp.ID != p.queue[0].ID {
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
	if resp.Inline {
		resp.Places = p.frame
	}
	p.frame = nil
	if resp.Fault != "" {
		p.done(head, faultResult(resp))
		return
	}
	p.done(head, Result{Outcome: Finished, Response: resp})
}

// interim passes an interim message of the head on (Config.Interim); a
// progress message extends the head's deadline for the page it starts.
func (p *pipe) interim(m Interim) {
	if m.OCRProgress != nil && m.OCRProgress.Done < m.OCRProgress.Total {
		p.extendForOCR()
	}
	if m.Preparing != nil {
		p.prepare(*m.Preparing != "")
	}
	if f := p.s.cfg.Interim; f != nil {
		f(p.queue[0], m)
	}
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
