//go:build windows

package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// underWine reports whether the test runs under Wine (ntdll exports
// wine_get_version there), which does not show every Windows behaviour.
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// TestJobMemoryCap: the worker's Job Object stops it at --worker-memory
// and the supervisor reports DESIGN's memory message.
func TestJobMemoryCap(t *testing.T) {
	res := runOne(t, Config{Exe: os.Args[0], Env: []string{"FUMIBAKO_WORKER_HELPER=alloc"}, MemLimit: 128 << 20})
	if res.Outcome == OutOfMemory && res.Msg == MsgOutOfMemory {
		return
	}
	if underWine() {
		t.Skipf("Wine does not enforce JOB_OBJECT_LIMIT_PROCESS_MEMORY (the worker allocated 1 GiB past a 128 MiB cap: %s); only real Windows shows the cap", res.Detail)
	}
	t.Fatalf("outcome %d %q (%s), want OutOfMemory", res.Outcome, res.Msg, res.Detail)
}

// TestCoordinatorKillEndsWorkers: when the coordinator is killed (taskkill
// /F, a crash), the system closes its job handles and kill-on-close ends
// its workers and what they started.
func TestCoordinatorKillEndsWorkers(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	coord := exec.Command(os.Args[0])
	coord.Env = append(os.Environ(), "FUMIBAKO_WORKER_HELPER=coordinator",
		"FUMIBAKO_WORKER_PIDS="+pids, "FUMIBAKO_WORKER_SCRATCH="+filepath.Join(dir, "w1"))
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	worker, child := readPids(t, pids)
	coord.Process.Kill()
	coord.Wait()
	for name, pid := range map[string]int{"worker": worker, "child": child} {
		if !waitDead(pid) {
			t.Errorf("%s %d outlived the killed coordinator", name, pid)
		}
	}
}
