// Package proctree runs an external program as a child of the worker so
// that the worker's process-tree kill covers it, and everything it starts:
// LibreOffice (soffice → oosplash → soffice.bin) and Tesseract. It owns
// no files and imports nothing of ours; the converters of the extraction
// tree and internal/ocr share it so that there is one implementation of
// "find the descendants, kill them all" per OS.
//
// A child started with Command stays in the worker's process group (Unix)
// or Job Object (Windows), so a worker killed with its group takes the
// child along; on Linux it also gets Pdeathsig SIGKILL (ChildAttr).
// Cancelling the context kills the child's whole tree first, while the
// child is still alive and its descendants can be found through it.
package proctree

import (
	"context"
	"os/exec"
	"time"
)

// Descendants lists the processes below pid, deepest last (Children is
// per OS: /proc on Linux, ps elsewhere, a Toolhelp snapshot on Windows).
func Descendants(pid int) []int {
	children := Children()
	var out []int
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// WaitDelay bounds how long Wait waits for a killed child's output pipes:
// a grandchild that inherited them must not hold the worker.
const WaitDelay = 5 * time.Second

// Command is exec.CommandContext whose cancellation kills the child's
// whole process tree (KillTree) rather than the child alone.
func Command(ctx context.Context, program string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Cancel = func() error {
		// The child is still alive here, so its descendants can be found
		// through it; once it is reaped they belong to init.
		KillTree(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = WaitDelay
	cmd.SysProcAttr = ChildAttr()
	return cmd
}
