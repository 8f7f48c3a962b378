package worker

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/fumibako/fumibako/internal/content"
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
		readMessages(stdout, p.out)
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

// maxLine bounds a line of the worker's (a Response with its log lines).
const maxLine = 64 << 20

// readMessages reads the worker's messages from r into out until r ends
// or breaks: each JSON line (without its line end), and each frame of
// inline places (Response.Places: "#<n>\n" and n bytes) as '#' and its n
// bytes. A line over maxLine, or a frame over content.BatchRecordMax,
// ends the reading, as the end of the pipe does (the worker is then taken
// for broken). Each message is a buffer of its own, never reused: the run
// keeps an inline answer's places in its frame (content.ParsePlacesOwned).
func readMessages(r io.Reader, out chan<- []byte) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if err != nil {
			return
		}
		if len(line) > 0 && line[0] == '#' {
			n, err := strconv.Atoi(string(line[1:]))
			if err != nil || n < 0 || n > content.BatchRecordMax {
				return
			}
			msg := make([]byte, 1+n)
			msg[0] = '#'
			if _, err := io.ReadFull(br, msg[1:]); err != nil {
				return
			}
			out <- msg
			continue
		}
		out <- line
	}
}

// readLine reads one line, without its LF (and a CR before it), as
// bufio.Scanner's lines; a last line without LF counts.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, bufio.ErrTooLong
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(line) > 0:
			return line, nil
		case err != nil:
			return nil, err
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, nil
	}
}
