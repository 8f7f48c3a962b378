package testutil_test

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

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
