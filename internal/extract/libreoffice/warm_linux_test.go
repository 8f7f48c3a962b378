package libreoffice

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procsMatching lists the live processes whose command line contains one
// of subs (from /proc).
func procsMatching(subs ...string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || len(b) == 0 {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		line := string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		for _, s := range subs {
			if strings.Contains(line, s) && alive(pid) {
				out = append(out, strconv.Itoa(pid)+" "+line[:min(len(line), 200)])
				break
			}
		}
	}
	return out
}

// TestWarmWorkerKilled SIGKILLs a process that keeps LibreOffice warm in
// the middle of its conversions: no process of its converter (soffice.bin
// with its profile, warm.py on its pipe) survives it.
func TestWarmWorkerKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks processes through /proc")
	}
	soffice := needWarm(t)
	root := t.TempDir()
	fx := lgFixtures(t, soffice, root)
	scratch := filepath.Join(root, "worker")
	os.MkdirAll(scratch, 0o755)
	ready := filepath.Join(root, "ready")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FUMIBAKO_WARM_HELPER=1", "FUMIBAKO_WARM_FILE="+fx[".doc"].path,
		"FUMIBAKO_WARM_SCRATCH="+scratch, "FUMIBAKO_WARM_READY="+ready)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.After(3 * time.Minute)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the helper ended before converting: %s", stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("the helper did not convert within 3 minutes")
		case <-time.After(50 * time.Millisecond):
		}
	}
	marks := []string{filepath.Join(scratch, Profile), "fumibako-" + strconv.Itoa(cmd.Process.Pid) + "-"}
	before := procsMatching(marks...)
	if len(before) < 2 {
		t.Fatalf("want soffice.bin and warm.py running before the kill, got %q", before)
	}
	time.Sleep(200 * time.Millisecond) // into a later conversion
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	var left []string
	for i := 0; i < 50; i++ {
		if left = procsMatching(marks...); len(left) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("after the SIGKILL of the worker %d these survived:\n%s\n(before: %s)", cmd.Process.Pid, strings.Join(left, "\n"), strings.Join(before, "\n"))
	for _, l := range left {
		pid, _ := strconv.Atoi(strings.Fields(l)[0])
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
