package worker

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// step is what a scripted worker does with one request.
type step struct {
	answer *Response // written back (its ID is the request's unless set)
	hang   bool      // never answers (until killed)
	rss    int64     // resident memory while hanging
	crash  string    // ends with this exit detail
	oomOS  bool      // with crash: the OS stopped it at the cap
	// pages OCR pages are read first, each taking pageTime: a progress
	// message before each and an ocrPage after it (ocr_internal_test.go).
	pages    int
	pageTime time.Duration
	// prepare is a one-time engine preparation first (a preparing
	// message, this long, then its end; issue 33).
	prepare time.Duration
}

// fakeProc is an in-process worker that serves its requests in order, as a
// real one does, following a script.
type fakeProc struct {
	launch int
	script func(launch int, req Request) step
	in     chan Request
	out    chan []byte
	done   chan struct{}
	killed chan struct{}
	once   sync.Once
	mu     sync.Mutex
	mem    int64
	detail string
	over   bool
}

func (p *fakeProc) serve() {
	defer p.end()
	for {
		select {
		case req := <-p.in:
			st := p.script(p.launch, req)
			if !p.ocrPages(st, req) {
				return
			}
			switch {
			case st.crash != "":
				p.mu.Lock()
				p.detail, p.over = st.crash, st.oomOS
				p.mu.Unlock()
				return
			case st.hang:
				p.mu.Lock()
				p.mem = st.rss
				p.mu.Unlock()
				<-p.killed
				return
			default:
				resp := *st.answer
				if resp.ID == 0 {
					resp.ID = req.ID
				}
				b, _ := json.Marshal(resp)
				p.out <- b
			}
		case <-p.killed:
			return
		}
	}
}

func (p *fakeProc) end() { p.once.Do(func() { close(p.done) }) }

func (p *fakeProc) write(line []byte) error {
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return err
	}
	select {
	case <-p.done:
		return errors.New("broken pipe")
	case p.in <- req:
		return nil
	}
}
func (p *fakeProc) lines() <-chan []byte    { return p.out }
func (p *fakeProc) exited() <-chan struct{} { return p.done }
func (p *fakeProc) rss() (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mem, true
}
func (p *fakeProc) overMemory() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.over
}
func (p *fakeProc) exitDetail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.detail
}
func (p *fakeProc) kill() {
	select {
	case <-p.killed:
	default:
		close(p.killed)
	}
	<-p.done
}
func (p *fakeProc) close() { p.kill() }

// fakeSlot returns a slot whose workers follow script, and the number of
// workers it started so far.
func fakeSlot(cfg Config, script func(launch int, req Request) step, startErr error) (*Slot, *int) {
	launches := 0
	s := &Slot{cfg: cfg, rssOK: true}
	s.launch = func(Config, string) (proc, error) {
		if startErr != nil {
			return nil, startErr
		}
		launches++
		p := &fakeProc{launch: launches, script: script, in: make(chan Request, Depth+1),
			out: make(chan []byte, Depth+1), done: make(chan struct{}), killed: make(chan struct{})}
		go p.serve()
		return p, nil
	}
	return s, &launches
}

func ok(n int) step { return step{answer: &Response{OK: true, TSVCount: n}} }

// TestPipelineOutcomes runs requests 1, 2, 3 through a slot of scripted
// workers: each gets the outcome of what its worker did, in order, and a
// killed or dead worker is replaced by a fresh one for the requests
// behind.
func TestPipelineOutcomes(t *testing.T) {
	full := &workspace.FaultError{Kind: workspace.FaultFull}
	tests := []struct {
		name     string
		cfg      Config
		script   map[int64]step // by request ID; others answer ok(ID)
		startErr error
		want     []string // per request: outcome and message
		launches int
	}{
		{name: "all answered", want: []string{"finished 1", "finished 2", "finished 3"}, launches: 1},
		{name: "per-file failure", script: map[int64]step{2: {answer: &Response{Msg: "壊れています"}}},
			want: []string{"finished 1", "finished failed 壊れています", "finished 3"}, launches: 1},
		// The deadline covers requests 1 and 3 too: long enough for a
		// loaded machine to answer them, as a worker does at once.
		{name: "deadline kill", cfg: Config{Timeout: time.Second}, script: map[int64]step{2: {hang: true}},
			want: []string{"finished 1", "timeout " + MsgTimeout(time.Second), "finished 3"}, launches: 2},
		{name: "crash, fresh worker", script: map[int64]step{1: {crash: "signal: segmentation fault"}},
			want: []string{"crashed " + msgCrashed + " | signal: segmentation fault", "finished 2", "finished 3"}, launches: 2},
		{name: "crash after an answer", script: map[int64]step{2: {crash: "exit status 2"}},
			want: []string{"finished 1", "crashed " + msgCrashed + " | exit status 2", "finished 3"}, launches: 2},
		{name: "RSS over the cap", cfg: Config{MemLimit: 1 << 20}, script: map[int64]step{3: {hang: true, rss: 2 << 20}},
			want: []string{"finished 1", "finished 2", "oom " + MsgOutOfMemory}, launches: 1},
		{name: "stopped by the OS at the cap", cfg: Config{MemLimit: 1 << 20}, script: map[int64]step{1: {crash: "exit status 1", oomOS: true}},
			want: []string{"oom " + MsgOutOfMemory, "finished 2", "finished 3"}, launches: 2},
		{name: "answer for another request", script: map[int64]step{1: {answer: &Response{ID: 99, OK: true}}},
			want: []string{"crashed " + msgCrashed + ` | bad response "{\"id\":99,\"ok\":true,\"tsvCount\":0}": <nil>`, "finished 2", "finished 3"}, launches: 2},
		{name: "fault", script: map[int64]step{2: {answer: &Response{Fault: workspace.FaultFull, FaultPath: "/ws/x", Detail: "no space"}}},
			want: []string{"finished 1", "faulted " + (&workspace.FaultError{Kind: full.Kind, Path: "/ws/x", Err: errors.New("no space")}).Error(), "finished 3"}, launches: 1},
		{name: "worker does not start", startErr: errors.New("exec: no such file"),
			want: []string{"crashed " + msgCrashed + " | exec: no such file", "crashed " + msgCrashed + " | exec: no such file", "crashed " + msgCrashed + " | exec: no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, launches := fakeSlot(tt.cfg, func(_ int, req Request) step {
				if st, found := tt.script[req.ID]; found {
					return st
				}
				return ok(int(req.ID))
			}, tt.startErr)
			got := runPipeline(s, 3, nil)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if *launches != tt.launches {
				t.Errorf("%d workers started, want %d", *launches, tt.launches)
			}
		})
	}
}

// TestPipelineAbandon: closing abandon ends the requests in the pipe and
// every later one Stopped, and kills the worker.
func TestPipelineAbandon(t *testing.T) {
	abandon := make(chan struct{})
	first := make(chan struct{})
	s, _ := fakeSlot(Config{}, func(_ int, req Request) step {
		if req.ID == 2 {
			// The stop arrives while 2 is being extracted, once 1's
			// answer is taken (else the pipeline may see the stop first:
			// its select picks either).
			<-first
			close(abandon)
			return step{hang: true}
		}
		return ok(int(req.ID))
	}, nil)
	got := runPipelineThen(s, 4, abandon, func(id int64) {
		if id == 1 {
			close(first)
		}
	})
	want := []string{"finished 1", "stopped", "stopped", "stopped"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.p != nil {
		t.Error("the worker is still held after the pipeline ended")
	}
}

// runPipeline sends requests 1..n and returns each result as text, in the
// order of the requests (failing on a result out of order).
func runPipeline(s *Slot, n int, abandon <-chan struct{}) []string {
	return runPipelineThen(s, n, abandon, func(int64) {})
}

// runPipelineThen is runPipeline calling then with each result's request
// id once it is recorded.
func runPipelineThen(s *Slot, n int, abandon <-chan struct{}, then func(id int64)) []string {
	in := make(chan Request)
	go func() {
		for i := 1; i <= n; i++ {
			in <- Request{ID: int64(i), Name: fmt.Sprintf("f%d.txt", i)}
		}
		close(in)
	}()
	var got []string
	next := int64(1)
	s.Pipeline(in, func(req Request, res Result) {
		if req.ID != next {
			got = append(got, fmt.Sprintf("out of order: %d", req.ID))
		}
		next = req.ID + 1
		got = append(got, describe(res))
		then(req.ID)
	}, abandon)
	return got
}

func describe(res Result) string {
	switch res.Outcome {
	case Finished:
		if !res.Response.OK {
			return "finished failed " + res.Response.Msg
		}
		return fmt.Sprint("finished ", res.Response.TSVCount)
	case TimedOut:
		return "timeout " + res.Msg
	case Crashed:
		// The message stays Japanese; the English cause is the detail,
		// for the log only (issue 16).
		return "crashed " + res.Msg + " | " + res.Detail
	case OutOfMemory:
		return "oom " + res.Msg
	case Stopped:
		return "stopped"
	case Faulted:
		return "faulted " + res.Msg
	}
	return "?"
}
