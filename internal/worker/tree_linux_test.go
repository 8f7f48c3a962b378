package worker

import (
	"os"
	"testing"
)

// TestMemoryCapReachesChildren: a process the worker started (as it starts
// LibreOffice) that goes over the cap gets the worker killed with DESIGN's
// memory message, though the worker itself stays small.
func TestMemoryCapReachesChildren(t *testing.T) {
	res := runOne(t, Config{Exe: os.Args[0], Env: []string{"FUMIBAKO_WORKER_HELPER=spawnhold"}, MemLimit: 128 << 20})
	if res.Outcome != OutOfMemory || res.Msg != MsgOutOfMemory {
		t.Fatalf("outcome %d %q (%s), want OutOfMemory", res.Outcome, res.Msg, res.Detail)
	}
}
