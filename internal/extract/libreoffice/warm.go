package libreoffice

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The warm converter: LibreOffice kept running for the files that follow.
//
// A cold conversion (convert.go) starts soffice for one file and costs 1–5
// s, nearly all of it LibreOffice's start. A process that calls KeepWarm
// (the worker) instead keeps, per profile, one converter made of two
// processes:
//
//	soffice.bin --headless --norestore --nolockcheck --nologo --nodefault
//	            -env:UserInstallation=file://<scratch>/lo-profile
//	            --accept=pipe,name=<pipe>;urp;StarOffice.ComponentContext
//	python -c <warm.py> <pipe> <seconds>
//
// where python is LibreOffice's own (program/python, python.exe, the app's
// Resources/python) or a system Python 3 with the uno module (Debian's
// python3-uno). warm.py loads and stores each file through UNO with the
// properties --convert-to uses, so both paths write the same file; the
// files are still the copies in <scratch>/lo-in and <scratch>/lo-out that
// the caller's scratch cleaning removes. A conversion then costs the
// import and export alone (0.05–0.3 s for a small file).
//
// soffice.bin is started directly, not through the soffice script and
// oosplash: on Linux both children get Pdeathsig SIGKILL, so a worker that
// dies by any means (the supervisor's kill of its process group, a SIGKILL
// of the worker or of the whole run) takes them along, and soffice.bin
// stays in the worker's process group (Unix) or Job Object (Windows), so
// the supervisor's tree kill and memory cap reach it as before. warm.py
// also ends LibreOffice when its stdin closes. A new profile makes
// soffice.bin exit with 81 after creating it (oosplash would restart it);
// the converter restarts it the same way.
//
// Failures keep the cold path's outcomes: ctx ending during a conversion
// (the caller's deadline) kills both process trees and returns ctx's error,
// and the next file starts a new converter; a converter that dies during a
// file (LibreOffice crashed) is dropped and that file is converted cold, so
// its outcome is what a cold conversion gives. Without a Python that
// imports uno, or when the converter cannot start, conversions are cold
// for the rest of the process. After warmRecycle files the converter is
// restarted, which bounds what LibreOffice accumulates.

//go:embed warm.py
var warmScript string

const (
	// warmConnect bounds LibreOffice's start until warm.py is connected.
	warmConnect = 90 * time.Second
	// warmRecycle is how many files one converter converts.
	warmRecycle = 200
	// restartExit is soffice.bin's exit code for "start me again" (after
	// creating a profile), which oosplash obeys.
	restartExit = 81
)

// warm holds the converters of this process.
var warm struct {
	mu     sync.Mutex
	on     bool
	convs  map[string]*converter // by profile
	python map[string]string     // soffice → its UNO Python ("" = none)
}

// KeepWarm makes this process convert through converters kept running
// (one per profile) until CloseWarm. The worker calls it; other callers
// convert cold, so they never leave LibreOffice behind.
func KeepWarm() {
	warm.mu.Lock()
	defer warm.mu.Unlock()
	warm.on = true
}

// CloseWarm ends every converter (LibreOffice is asked to terminate, then
// its tree is killed) and turns KeepWarm off.
func CloseWarm() {
	warm.mu.Lock()
	convs := warm.convs
	warm.on, warm.convs = false, nil
	warm.mu.Unlock()
	for _, c := range convs {
		c.mu.Lock()
		c.stop(true)
		c.mu.Unlock()
	}
}

// convert converts name in dir to target in outdir as run does, through
// the warm converter of profile when KeepWarm is on and it can start, cold
// otherwise.
func convert(ctx context.Context, soffice, dir, name, target, infilter, outdir, profile string) (string, error) {
	if c := converterFor(soffice, profile); c != nil {
		printed, err := c.convert(ctx, dir, name, target, infilter, outdir)
		if !errors.Is(err, errWarmGone) {
			return printed, err
		}
	}
	return run(ctx, soffice, dir, []string{name}, target, infilter, outdir, profile)
}

// errWarmGone says the converter could not convert the file (it is not
// available, or died meanwhile): the caller converts cold.
var errWarmGone = errors.New("extract: warm libreoffice unavailable")

func converterFor(soffice, profile string) *converter {
	warm.mu.Lock()
	defer warm.mu.Unlock()
	if !warm.on {
		return nil
	}
	if c := warm.convs[profile]; c != nil {
		return c
	}
	if warm.convs == nil {
		warm.convs = map[string]*converter{}
	}
	c := &converter{soffice: soffice, profile: profile}
	warm.convs[profile] = c
	return c
}

// pythonFor finds the Python that imports uno for soffice, once per
// process and soffice.
func pythonFor(soffice string) string {
	warm.mu.Lock()
	p, ok := warm.python[soffice]
	warm.mu.Unlock()
	if ok {
		return p
	}
	p = findPython(soffice)
	warm.mu.Lock()
	if warm.python == nil {
		warm.python = map[string]string{}
	}
	warm.python[soffice] = p
	warm.mu.Unlock()
	return p
}

// findPython is the first candidate that imports uno; tests replace it.
var findPython = func(soffice string) string {
	for _, c := range pythonCandidates(soffice) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := exec.CommandContext(ctx, c, "-c", "import uno").Run()
		cancel()
		if err == nil {
			return c
		}
	}
	return ""
}

// pythonCandidates lists where LibreOffice's Python may be: its own next
// to soffice, then (Linux distributions) the system's.
func pythonCandidates(soffice string) []string {
	dir := filepath.Dir(resolve(soffice))
	switch runtime.GOOS {
	case "windows":
		return []string{filepath.Join(dir, "python.exe")}
	case "darwin":
		return []string{filepath.Join(dir, "..", "Resources", "python")}
	}
	out := []string{filepath.Join(dir, "python"), "/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		out = append(out, p)
	}
	var have []string
	for _, c := range out {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			have = append(have, c)
		}
	}
	return have
}

// resolve follows symbolic links (/usr/bin/soffice → …/program/soffice).
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// officeBinary is soffice.bin next to soffice (the process the soffice
// script and oosplash end up running), else soffice itself.
func officeBinary(soffice string) string {
	bin := filepath.Join(filepath.Dir(resolve(soffice)), "soffice.bin")
	if st, err := os.Stat(bin); err == nil && !st.IsDir() {
		return bin
	}
	return soffice
}

// converter is the warm LibreOffice of one profile; mu is held for a whole
// conversion.
type converter struct {
	mu      sync.Mutex
	soffice string
	profile string
	broken  bool      // it could not start: convert cold from now on
	p       *warmProc // nil until started and after stop
	done    int       // files converted by p
}

// warmProc is a started converter's two processes. officeDone and
// clientDone close once each process is reaped; before that its pid is
// still its own, so killing its tree by pid is safe.
type warmProc struct {
	office     *exec.Cmd
	officeDone chan struct{}
	officeCode int // soffice.bin's exit code, once officeDone is closed
	client     *exec.Cmd
	clientDone chan struct{}
	stdin      io.WriteCloser
	lines      chan string   // warm.py's answers; closed when its stdout ends
	quit       chan struct{} // closed by stop: the reader stops sending
	out        *output       // what both printed
}

var pipeSeq atomic.Int64

// convert converts name in dir to target in outdir (see run).
func (c *converter) convert(ctx context.Context, dir, name, target, infilter, outdir string) (string, error) {
	filter, ok := filters[target]
	if !ok {
		return "", fmt.Errorf("extract: unknown conversion target %q", target)
	}
	if err := os.MkdirAll(outdir, 0o755); err != nil {
		return "", fmt.Errorf("extract: create conversion folder: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken {
		return "", errWarmGone
	}
	if c.p != nil && c.done >= warmRecycle {
		c.stop(true)
	}
	if c.p != nil && c.p.exited() {
		c.stop(false) // crashed since the last file: start a new one
	}
	if c.p == nil {
		if err := c.start(ctx); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return "", fmt.Errorf("extract: libreoffice conversion stopped: %w", cerr)
			}
			c.broken = true
			return "", errWarmGone
		}
	}
	in, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		return "", fmt.Errorf("extract: %s: %w", name, err)
	}
	out, err := filepath.Abs(filepath.Join(outdir, strings.TrimSuffix(name, filepath.Ext(name))+"."+target))
	if err != nil {
		return "", fmt.Errorf("extract: %s: %w", name, err)
	}
	// gone drops a converter that died on this file, and what it may have
	// half written, so that the cold conversion starts clean.
	gone := func() (string, error) {
		c.stop(false)
		os.Remove(out)
		return "", errWarmGone
	}
	req, _ := json.Marshal(map[string]string{"in": FileURL(in), "out": FileURL(out), "filter": filter, "infilter": infilter})
	if _, err := c.p.stdin.Write(append(req, '\n')); err != nil {
		return gone()
	}
	c.done++
	select {
	case line, ok := <-c.p.lines:
		if !ok {
			return gone()
		}
		var resp struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil {
			return gone()
		}
		return resp.Error, nil
	case <-c.p.officeDone:
		return gone()
	case <-ctx.Done():
		c.stop(false)
		return "", fmt.Errorf("extract: libreoffice conversion stopped: %w", ctx.Err())
	}
}

// start starts soffice.bin and warm.py and waits until warm.py is
// connected.
func (c *converter) start(ctx context.Context) error {
	python := pythonFor(c.soffice)
	if python == "" {
		return errors.New("extract: no python with uno for libreoffice")
	}
	if err := ensureLocale(c.profile); err != nil {
		return err
	}
	pipe := fmt.Sprintf("fumibako-%d-%d-%d", os.Getpid(), pipeSeq.Add(1), time.Now().UnixNano())
	p := &warmProc{out: &output{}, lines: make(chan string), quit: make(chan struct{})}
	c.p, c.done = p, 0
	if err := c.startOffice(pipe); err != nil {
		c.stop(false)
		return err
	}
	if err := c.startClient(python, pipe); err != nil {
		c.stop(false)
		return err
	}
	timer := time.NewTimer(warmConnect)
	defer timer.Stop()
	restarts := 0
	for {
		select {
		case line, ok := <-p.lines:
			if ok && strings.Contains(line, `"ready"`) {
				return nil
			}
			c.stop(false)
			return fmt.Errorf("extract: libreoffice client ended: %s", p.printed())
		case <-p.officeDone:
			if p.officeCode == restartExit && restarts < 2 {
				restarts++
				if err := c.startOffice(pipe); err != nil {
					c.stop(false)
					return err
				}
				continue
			}
			c.stop(false)
			return fmt.Errorf("extract: libreoffice exited with %d: %s", p.officeCode, p.printed())
		case <-timer.C:
			c.stop(false)
			return errors.New("extract: libreoffice did not accept connections in time")
		case <-ctx.Done():
			c.stop(false)
			return ctx.Err()
		}
	}
}

// exited reports whether either process has ended.
func (p *warmProc) exited() bool {
	select {
	case <-p.officeDone:
		return true
	case <-p.clientDone:
		return true
	default:
		return false
	}
}

func (p *warmProc) printed() string { return strings.Join(strings.Fields(p.out.String()), " ") }

// startOffice starts soffice.bin listening on pipe.
func (c *converter) startOffice(pipe string) error {
	p := c.p
	bin := officeBinary(c.soffice)
	cmd := exec.Command(bin, "--headless", "--norestore", "--nolockcheck", "--nologo", "--nodefault",
		"-env:UserInstallation="+FileURL(c.profile),
		"--accept=pipe,name="+pipe+";urp;StarOffice.ComponentContext")
	cmd.Dir = filepath.Dir(c.profile)
	cmd.Stdout, cmd.Stderr = p.out, p.out
	cmd.WaitDelay = 2 * time.Second
	// What the soffice script sets before it runs oosplash.
	cmd.Env = append(os.Environ(), "SAL_ENABLE_FILE_LOCKING=1")
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("extract: start libreoffice %s: %w", bin, err)
	}
	done := make(chan struct{})
	p.office, p.officeDone = cmd, done
	go func() {
		cmd.Wait()
		p.officeCode = cmd.ProcessState.ExitCode()
		close(done)
	}()
	return nil
}

// startClient starts warm.py with python, its answers going to p.lines.
func (c *converter) startClient(python, pipe string) error {
	p := c.p
	cmd := exec.Command(python, "-c", warmScript, pipe, fmt.Sprint(int(warmConnect/time.Second)))
	cmd.Dir = filepath.Dir(c.profile)
	cmd.Stderr = p.out
	cmd.WaitDelay = 2 * time.Second
	cmd.SysProcAttr = childAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("extract: libreoffice client stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("extract: libreoffice client stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("extract: start %s: %w", python, err)
	}
	done := make(chan struct{})
	p.client, p.clientDone, p.stdin = cmd, done, stdin
	go func() {
		defer close(done)
		defer cmd.Wait()
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-p.quit:
				return
			}
		}
	}()
	return nil
}

// stop ends the converter's processes: gently (stdin closed, so warm.py
// terminates LibreOffice; a few seconds) when gentle, then by killing what
// is left of both trees.
func (c *converter) stop(gentle bool) {
	p := c.p
	if p == nil {
		return
	}
	c.p = nil
	close(p.quit)
	if p.stdin != nil {
		p.stdin.Close()
	}
	if gentle && p.office != nil {
		select {
		case <-p.officeDone:
		case <-time.After(5 * time.Second):
		}
	}
	for _, x := range []struct {
		cmd  *exec.Cmd
		done chan struct{}
	}{{p.client, p.clientDone}, {p.office, p.officeDone}} {
		if x.cmd == nil {
			continue
		}
		select {
		case <-x.done:
			continue // reaped: its pid may belong to another process now
		default:
		}
		killTree(x.cmd.Process.Pid)
		select {
		case <-x.done:
		case <-time.After(5 * time.Second):
		}
	}
}
