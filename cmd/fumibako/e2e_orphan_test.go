package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestIssue36KilledCoordinatorLeavesNoWorker: a coordinator killed in
// the middle of a run (SIGKILL; TerminateProcess on Windows, as taskkill
// /F does) while both its workers are hung on files leaves no
// `__worker` process within seconds, with the system's guard (Pdeathsig
// on Linux, the Job Object's kill-on-close on Windows) and without it (as
// where it does not fire: Wine, a job that could not be assigned, a pipe
// handle inherited elsewhere), since each worker watches its coordinator.
func TestIssue36KilledCoordinatorLeavesNoWorker(t *testing.T) {
	for _, tc := range []struct{ name, env string }{
		{"system guard", ""},
		{"no system guard", "FUMIBAKO_TEST_NO_GUARD=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			for i := range 4 {
				f.write(fmt.Sprintf("ok%d.txt", i), "大丈夫\n")
			}
			f.write("stuck1.txt", "止まる\n")
			f.write("stuck2.txt", "止まる\n")
			f.mustRun("folder", "add", f.root)
			f.env = []string{"FUMIBAKO_TEST_FAULT=hang:stuck", tc.env}
			c := f.cmd("index", "--workers", "2")
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			// Both workers hang, each on a stuck file: they read no
			// request and write no answer that could end them.
			var workers []int
			waitFor(t, func() bool {
				if !journalStarted(f, "stuck1.txt") || !journalStarted(f, "stuck2.txt") {
					return false
				}
				for i := range 4 {
					if r, ok := f.list().Lookup(fmt.Sprintf(`営業\ok%d.txt`, i)); !ok || r.State != ingestlist.Done {
						return false
					}
				}
				workers = testutil.ChildrenOf(c.Process.Pid)
				return len(workers) == 2
			})
			c.Process.Kill()
			c.Wait()
			left := testutil.WaitGone(t, workers, 10*time.Second)
			for _, pid := range left {
				t.Errorf("worker %d outlived its killed coordinator by 10 s", pid)
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}
			if runtime.GOOS == "linux" {
				for _, p := range testutil.ProcessesWith(f.ws) {
					if strings.Contains(p, "__worker") {
						t.Errorf("worker left: %s", p)
					}
				}
			}
		})
	}
}
