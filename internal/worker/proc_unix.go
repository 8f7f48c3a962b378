//go:build !windows

package worker

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/fumibako/fumibako/internal/workspace"
)

// groupTree is the worker's process group (setProcessGroup).
type groupTree struct{ pid int }

func osTree(cmd *exec.Cmd, _ int64) (procTree, error) {
	return groupTree{pid: cmd.Process.Pid}, nil
}

func (t groupTree) kill()            { syscall.Kill(-t.pid, syscall.SIGKILL) }
func (t groupTree) overMemory() bool { return false }
func (t groupTree) release()         {}

// rssSupported: the supervisor enforces the memory cap by watching the
// worker's RSS (Linux /proc); elsewhere on Unix there is no cap.
var rssSupported = sync.OnceValue(func() bool { return fileExists("/proc/self/status") })

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// processRSS is the largest resident memory of pid and the processes below
// it, from /proc (Linux): the cap is per process, as Windows' job limit
// is, so it reaches the converter the worker keeps running (LibreOffice's
// soffice.bin, a child of the worker) as well as the worker. Children are
// found through /proc/<pid>/task/<tid>/children, so no scan of every
// process runs ten times a second.
func processRSS(pid int) int64 {
	var largest int64
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		largest = max(largest, vmRSS(p))
		// One listing of the tasks and one read per task, without a
		// glob's stat of each match (issue 35: this runs ten times a
		// second per worker).
		tasks := "/proc/" + strconv.Itoa(p) + "/task"
		ents, _ := os.ReadDir(tasks)
		for _, e := range ents {
			b, _ := workspace.ReadFile(tasks + "/" + e.Name() + "/children")
			for _, c := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(c); err == nil && !seen[n] {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
	}
	return largest
}

// vmRSS reads VmRSS of pid from /proc (Linux).
func vmRSS(pid int) int64 {
	data, err := workspace.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// ProcessAlive reports whether a process with pid exists (used to clean the
// scratch of dead runs).
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
