package testutil_test

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/testutil"
)

// TestProcessesWith: a process whose command line names a folder is
// found by it, once, while it runs, and by no other folder.
func TestProcessesWith(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ProcessesWith reads /proc")
	}
	named, other := t.TempDir(), t.TempDir()
	// One process that forks nothing: sleep, with the folder in its
	// argv[0] (a shell would fork sleep, and its child shows the shell's
	// command line until it execs).
	cmd := exec.Command("sleep", "60")
	cmd.Args[0] = named + "/sleep"
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	tests := []struct {
		name string
		dirs []string
		want int
	}{
		{"named", []string{named}, 1},
		{"named among others", []string{other, named, named}, 1},
		{"not named", []string{other}, 0},
		{"no folder", nil, 0},
	}
	for _, tt := range tests {
		got := testutil.ProcessesWith(tt.dirs...)
		if len(got) != tt.want || tt.want == 1 && !strings.HasPrefix(got[0], pid+": "+named+"/sleep 60") {
			t.Errorf("%s: ProcessesWith(%q) = %q, want %d line(s) of pid %s", tt.name, tt.dirs, got, tt.want, pid)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if got := testutil.ProcessesWith(named); len(got) != 0 {
		t.Errorf("after the process ended: ProcessesWith(%q) = %q, want none", named, got)
	}
}

// TestChildrenOf: a process's children are named by its id, and
// WaitGone tells when they end.
func TestChildrenOf(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if runtime.GOOS == "windows" {
		cmd = exec.Command("ping", "-n", "60", "127.0.0.1")
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("no process to start: %v", err)
	}
	got := testutil.ChildrenOf(os.Getpid())
	if !slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("ChildrenOf(self) = %v, want %d among them", got, cmd.Process.Pid)
	}
	if n := testutil.Threads(os.Getpid()); n < 2 {
		t.Errorf("Threads(self) = %d, want the Go runtime's several", n)
	}
	if left := testutil.WaitGone(t, []int{cmd.Process.Pid}, 100*time.Millisecond); len(left) != 1 {
		t.Errorf("WaitGone(running) = %v, want it left", left)
	}
	cmd.Process.Kill()
	if left := testutil.WaitGone(t, []int{cmd.Process.Pid}, 5*time.Second); len(left) != 0 {
		t.Errorf("WaitGone(killed) = %v, want none", left)
	}
	cmd.Wait()
}
