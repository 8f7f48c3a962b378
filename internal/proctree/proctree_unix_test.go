//go:build unix

package proctree_test

import (
	"context"
	"errors"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/proctree"
)

// TestCancelKillsTheWholeTree starts a child that starts two grandchildren
// (as soffice starts oosplash and soffice.bin): Descendants finds both,
// and cancelling the context kills all three, so nothing the converter
// started outlives it. (Windows: the same through a Toolhelp snapshot,
// run in the Wine lane by the converters' tests.)
func TestCancelKillsTheWholeTree(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := proctree.Command(ctx, "/bin/sh", "-c", "sleep 60 & sleep 60 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var below []int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if below = proctree.Descendants(cmd.Process.Pid); len(below) == 2 {
			break
		}
	}
	if len(below) != 2 {
		t.Fatalf("descendants of the child: %v, want the two sleeps", below)
	}
	cancel()
	if err := cmd.Wait(); err == nil {
		t.Error("the cancelled child exited cleanly")
	}
	for _, pid := range slices.Concat([]int{cmd.Process.Pid}, below) {
		gone := false
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !gone; time.Sleep(20 * time.Millisecond) {
			// A killed grandchild is reaped by init; until then it is a
			// zombie, which no longer runs: both count as gone.
			err := syscall.Kill(pid, 0)
			gone = errors.Is(err, syscall.ESRCH) || zombie(pid)
		}
		if !gone {
			t.Errorf("process %d still runs after the cancel", pid)
		}
	}
}
