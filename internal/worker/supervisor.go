package worker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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
}

// MsgTimeout is the per-file message after a deadline kill (DESIGN.md
// "Indexing run").
func MsgTimeout(d time.Duration) string {
	n := fmt.Sprintf("%d 分", int(d/time.Minute))
	if d%time.Minute != 0 {
		n = fmt.Sprintf("%d 秒", int((d+time.Second-1)/time.Second))
	}
	return n + "以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"
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

	cmd    *exec.Cmd
	tree   procTree
	stdin  io.WriteCloser
	lines  chan []byte
	exited chan struct{}
	stderr *tail
}

// NewSlot returns a slot whose worker uses scratch as its private folder.
func NewSlot(cfg Config, scratch string) *Slot {
	return &Slot{cfg: cfg, scratch: scratch}
}

func (s *Slot) start() error {
	if err := workspace.MkdirAll(s.scratch); err != nil {
		return fmt.Errorf("worker: create scratch %s: %w", s.scratch, err)
	}
	args := append(append([]string{}, s.cfg.Args...), Command, "--scratch", s.scratch,
		"--mem-limit", fmt.Sprint(s.cfg.MemLimit))
	cmd := exec.Command(s.cfg.Exe, args...)
	cmd.Env = append(os.Environ(), s.cfg.Env...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("worker: stdin pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("worker: stdout pipe: %w", err)
	}
	s.stderr = &tail{}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("worker: start %s: %w", s.cfg.Exe, err)
	}
	tree, err := newTree(cmd, s.cfg.MemLimit)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	s.cmd, s.tree, s.stdin = cmd, tree, stdin
	s.lines = make(chan []byte, Depth+1)
	s.exited = make(chan struct{})
	go func(lines chan<- []byte, exited chan<- struct{}) {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 64<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		cmd.Wait()
		close(exited)
	}(s.lines, s.exited)
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

func (s *Slot) crashed(err error) Result {
	<-s.exited // the reader goroutine has waited for the process
	state := "exited"
	if s.cmd.ProcessState != nil {
		state = s.cmd.ProcessState.String()
	}
	detail := state
	if t := s.stderr.String(); t != "" {
		detail += ": " + t
	}
	if err != nil {
		detail += ": " + err.Error()
	}
	over := s.tree.overMemory()
	s.kill()
	if over {
		return Result{Outcome: OutOfMemory, Msg: MsgOutOfMemory,
			Detail: fmt.Sprintf("the worker reached the memory cap of %d bytes (%s)", s.cfg.MemLimit, detail)}
	}
	return Result{Outcome: Crashed, Msg: msgCrashed + "（詳細: " + oneLine(detail) + "）", Detail: detail}
}

// kill ends the worker's whole process tree and forgets the process; the
// next Run starts a fresh worker.
func (s *Slot) kill() {
	if s.cmd == nil {
		return
	}
	s.killTree()
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
	}
	s.tree.release()
	s.cmd = nil
}

func (s *Slot) killTree() {
	s.tree.kill()
	s.cmd.Process.Kill()
}

// Close stops the worker: stdin is closed so it exits on its own; after a
// short wait its tree is killed.
func (s *Slot) Close() {
	if s.cmd == nil {
		return
	}
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second):
	}
	s.killTree()
	s.tree.release()
	s.cmd = nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
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
