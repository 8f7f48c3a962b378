package worker

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Outcome classifies how a job ended.
type Outcome int

// Outcomes of a job.
const (
	Finished    Outcome = iota // the worker answered (Response.OK or a per-file failure)
	TimedOut                   // the deadline passed; the process tree was killed
	Crashed                    // the worker died on its own
	OutOfMemory                // the memory cap was exceeded; the process tree was killed
	Stopped                    // a stop request killed it; the file stays 未取り込み
	Faulted                    // the workspace could not be written (Result.Fault): the run's fault, not the file's
)

// Config describes how to start workers.
type Config struct {
	Exe      string   // the fumibako executable
	Args     []string // arguments before the worker flags (e.g. global flags)
	Env      []string // extra environment
	Timeout  time.Duration
	MemLimit int64 // bytes per process (RSS on Linux, committed memory per job process on Windows); 0 = no cap

	// OCR (issue 29). OCRProgram is the OCR engine's program the worker
	// uses (`__worker --ocr`), "" when none is installed; OCRCache the
	// page cache folder it reads (`--ocr-cache`).
	OCRProgram, OCRCache string
	// OCRPageTimeout is the per-file deadline's allowance per OCR page:
	// each ocrProgress message gives the page about to start at least
	// this long, whatever is left of Timeout (0 = DefaultOCRPageTimeout).
	OCRPageTimeout time.Duration
	// Interim receives the interim messages of the request at the head
	// of a pipeline (Interim), in order and before that request's result;
	// it runs on the pipeline's goroutine. nil: they are dropped.
	Interim func(Request, Interim)
}

// PrepareTimeout is the deadline's allowance for a reader's one-time
// engine preparation (Interim.Preparing; the PDF engine's compile with
// the wait for another worker's, issue 33).
const PrepareTimeout = 5 * time.Minute

// DefaultOCRPageTimeout is the deadline's allowance per OCR page when the
// settings give none (ocrSecondsPerPage).
const DefaultOCRPageTimeout = 60 * time.Second

// MsgOCRPageTimeout is the per-file message when one OCR page outlasted
// its allowance after the file's own deadline had passed: the pages read
// before it are kept in the cache, so a retry goes on from there.
func MsgOCRPageTimeout(d time.Duration) string {
	return "OCR の 1 ページが " + DurationText(d) + "以内に読み終わらなかったため中止しました（取り込みのプロセスを強制終了しました。読み終わったページは次の取り込みで使います）"
}

// MsgTimeout is the per-file message after a deadline kill (DESIGN.md
// "Indexing run").
func MsgTimeout(d time.Duration) string {
	return DurationText(d) + "以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"
}

// DurationText writes a deadline for a message: whole minutes in 分, a
// deadline under a second in ミリ秒 (issue 32: 200 ms was told as 1 秒),
// else seconds rounded up (1.5 s → 2 秒, never a deadline shorter than the
// real one). The indexer's start line and the per-file messages use it.
func DurationText(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d 分", int(d/time.Minute))
	case d < time.Second:
		return fmt.Sprintf("%d ミリ秒", int((d+time.Millisecond-1)/time.Millisecond))
	}
	return fmt.Sprintf("%d 秒", int((d+time.Second-1)/time.Second))
}

// MsgOutOfMemory is the per-file message after the memory cap fired.
const MsgOutOfMemory = "シート・文書が大きすぎて取り込めません（メモリが不足しました）"

// msgCrashed is the per-file message for a worker that died on its own.
const msgCrashed = "取り込みのプロセスが異常終了しました（ファイルが壊れている、または大きすぎる可能性があります）"

// Slot is one supervised worker process, restarted after every kill. A
// Slot is used by one goroutine at a time.
type Slot struct {
	cfg     Config
	scratch string

	// launch starts a worker (execProc; a fake in tests); rssOK says
	// whether the slot watches the worker's RSS against cfg.MemLimit.
	launch func(cfg Config, scratch string) (proc, error)
	rssOK  bool
	p      proc // the running worker, nil between a kill and the next start
}

// NewSlot returns a slot whose worker uses scratch as its private folder.
func NewSlot(cfg Config, scratch string) *Slot {
	return &Slot{cfg: cfg, scratch: scratch, launch: startExec, rssOK: rssSupported()}
}

// proc is one running worker as the slot sees it: a process tree
// (execProc) or, in tests, a scripted one.
type proc interface {
	// write sends one request line to the worker.
	write(line []byte) error
	// lines delivers the worker's answer lines; exited is closed once the
	// worker has ended and every line was delivered.
	lines() <-chan []byte
	exited() <-chan struct{}
	// rss is the worker's resident memory, when it can be measured.
	rss() (int64, bool)
	// overMemory reports that the OS stopped the worker at the cap.
	overMemory() bool
	// exitDetail says how an exited worker ended, with its last stderr.
	exitDetail() string
	// kill ends the whole tree now; close lets the worker end on its own
	// (stdin closed) before killing what is left. Both release the tree.
	kill()
	close()
}

func (s *Slot) start() error {
	p, err := s.launch(s.cfg, s.scratch)
	if err != nil {
		return err
	}
	s.p = p
	return nil
}

// Result is the outcome of one job.
type Result struct {
	Outcome  Outcome
	Response Response // valid when Outcome == Finished
	Msg      string   // per-file message for the other outcomes
	Detail   string
	Fault    *workspace.FaultError // when Outcome == Faulted
}

// faultResult is the outcome of a job whose worker could not write the
// workspace, rebuilt from the worker's answer.
func faultResult(resp Response) Result {
	f := &workspace.FaultError{Kind: resp.Fault, Path: resp.FaultPath, Err: errors.New(resp.Detail)}
	return Result{Outcome: Faulted, Response: resp, Msg: f.Error(), Detail: resp.Detail, Fault: f}
}

func (s *Slot) crashed() Result {
	<-s.p.exited() // the worker has ended and its lines are read
	detail := s.p.exitDetail()
	over := s.p.overMemory()
	s.kill()
	if over {
		return Result{Outcome: OutOfMemory, Msg: MsgOutOfMemory,
			Detail: fmt.Sprintf("the worker reached the memory cap of %d bytes (%s)", s.cfg.MemLimit, detail)}
	}
	return Result{Outcome: Crashed, Msg: msgCrashed, Detail: detail}
}

// kill ends the worker's whole process tree and forgets the process; the
// next request starts a fresh worker.
func (s *Slot) kill() {
	if s.p == nil {
		return
	}
	s.p.kill()
	s.p = nil
}

// Close stops the worker: stdin is closed so it exits on its own; after a
// short wait its tree is killed.
func (s *Slot) Close() {
	if s.p == nil {
		return
	}
	s.p.close()
	s.p = nil
}

// tail keeps the last 4 KiB written to it (the worker's stderr).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
