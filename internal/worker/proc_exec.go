package worker

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// execProc is a worker process (`<exe> <args> __worker`) with its tree.
type execProc struct {
	cmd    *exec.Cmd
	tree   procTree
	stdin  io.WriteCloser
	out    chan []byte
	done   chan struct{}
	stderr *tail
}

// startExec starts a worker process for cfg with scratch as its folder.
func startExec(cfg Config, scratch string) (proc, error) {
	if err := workspace.MkdirAll(scratch); err != nil {
		return nil, fmt.Errorf("worker: create scratch %s: %w", scratch, err)
	}
	args := append(append([]string{}, cfg.Args...), Command, "--scratch", scratch,
		"--mem-limit", fmt.Sprint(cfg.MemLimit), "--parent", fmt.Sprint(os.Getpid()))
	if cfg.OCRProgram != "" {
		args = append(args, "--ocr", cfg.OCRProgram)
	}
	if cfg.OCRCache != "" {
		args = append(args, "--ocr-cache", cfg.OCRCache)
	}
	cmd := exec.Command(cfg.Exe, args...)
	cmd.Env = append(os.Environ(), cfg.Env...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("worker: stdin pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("worker: stdout pipe: %w", err)
	}
	p := &execProc{cmd: cmd, stdin: stdin, stderr: &tail{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("worker: start %s: %w", cfg.Exe, err)
	}
	tree, err := newTree(cmd, cfg.MemLimit)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	p.tree = tree
	p.out = make(chan []byte, Depth+1)
	p.done = make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 64<<20)
		for sc.Scan() {
			p.out <- append([]byte(nil), sc.Bytes()...)
		}
		cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *execProc) write(line []byte) error { _, err := p.stdin.Write(line); return err }
func (p *execProc) lines() <-chan []byte    { return p.out }
func (p *execProc) exited() <-chan struct{} { return p.done }
func (p *execProc) overMemory() bool        { return p.tree.overMemory() }

func (p *execProc) rss() (int64, bool) { return processRSS(p.cmd.Process.Pid), true }

func (p *execProc) exitDetail() string {
	detail := "exited"
	if p.cmd.ProcessState != nil {
		detail = p.cmd.ProcessState.String()
	}
	if t := p.stderr.String(); t != "" {
		detail += ": " + t
	}
	return detail
}

func (p *execProc) kill() {
	p.killTree()
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
	p.tree.release()
}

func (p *execProc) close() {
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	p.killTree()
	p.tree.release()
}

func (p *execProc) killTree() {
	p.tree.kill()
	p.cmd.Process.Kill()
}
