package worker

import "os/exec"

// procTree is a running worker with every process it started: a process
// group on Unix, a Job Object on Windows (tree_windows.go). The supervisor
// kills the tree, never single processes, so a converter cannot outlive
// its worker.
type procTree interface {
	// kill ends every process of the tree.
	kill()
	// overMemory reports that the OS stopped a process of the tree at the
	// memory cap (Windows' per-process job limit; false where the
	// supervisor watches the RSS itself).
	overMemory() bool
	// release frees what the tree holds; on Windows closing the job kills
	// whatever is still in it.
	release()
}

// newTree attaches a tree to a started worker, with the memory cap in bytes
// (0 = none). A seam: tests replace it.
var newTree = func(cmd *exec.Cmd, memLimit int64) (procTree, error) {
	return osTree(cmd, memLimit)
}
