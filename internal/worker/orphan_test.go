package worker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// The orphan tests run three processes: the test, a stand-in coordinator
// (the orphaner helper, started with plain exec: no Pdeathsig, no Job
// Object, as where the system's guard does not fire) and the worker it
// starts (the serve helper, running Serve). The test kills the coordinator
// and waits for the worker to end by itself.
//
//	FUMIBAKO_ORPHAN_MODE=held   the worker idles; its request pipe is the
//	                            coordinator's stdin, whose other end the
//	                            test holds (a pipe handle inherited
//	                            elsewhere): only the parent watch can tell
//	busy                        the worker hangs on a request; it does not
//	                            watch its parent: only the end of the
//	                            request pipe can tell

// orphaner is the stand-in coordinator.
func orphaner() {
	mode := os.Getenv("FUMIBAKO_ORPHAN_MODE")
	w := exec.Command(os.Args[0])
	// Its parent's id is given, as the coordinator gives --parent: the
	// worker may start after its parent is gone.
	w.Env = append(os.Environ(), "FUMIBAKO_WORKER_HELPER=serve", fmt.Sprint("FUMIBAKO_ORPHAN_PARENT=", os.Getpid()))
	w.Stdout = os.Stderr
	if mode == "held" {
		w.Stdin = os.Stdin
	}
	stdin, err := w.StdinPipe()
	if mode == "held" {
		stdin, err = nil, nil
	}
	if err != nil {
		os.Exit(4)
	}
	if err := w.Start(); err != nil {
		os.Exit(4)
	}
	if stdin != nil {
		fmt.Fprintf(stdin, `{"id":1,"path":"x","name":"hang.txt","stage":%q}`+"\n", os.Getenv("FUMIBAKO_WORKER_SCRATCH"))
	}
	writePids(fmt.Sprintf("worker %d\nchild %d\n", w.Process.Pid, w.Process.Pid))
	select {}
}

// serveHelper serves requests as a worker does; a file named hang.txt
// never finishes.
func serveHelper() {
	extractFile = func(ctx context.Context, path, name string, opt extract.Options) (*extract.Result, error) {
		select {}
	}
	cfg := ServeConfig{Scratch: os.Getenv("FUMIBAKO_WORKER_SCRATCH"), Exit: func() { os.Exit(3) }}
	if os.Getenv("FUMIBAKO_ORPHAN_MODE") == "held" {
		cfg.Parent, _ = strconv.Atoi(os.Getenv("FUMIBAKO_ORPHAN_PARENT"))
	}
	if err := Serve(context.Background(), os.Stdin, os.Stdout, cfg); err != nil {
		os.Exit(5)
	}
	os.Exit(0)
}

// TestIssue36OrphanedWorkerEnds: a worker whose coordinator was killed
// ends by itself within seconds, whatever the system's guard did: an idle
// worker whose request pipe another process still holds open (it watches
// the coordinator's process), and a worker hung on a file (it sees the end
// of its request pipe while busy). Before, both waited forever.
func TestIssue36OrphanedWorkerEnds(t *testing.T) {
	for _, mode := range []string{"held", "busy"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close() // held by the test until the end
			coord := exec.Command(os.Args[0])
			coord.Stdin = pr
			coord.Env = append(os.Environ(), "FUMIBAKO_WORKER_HELPER=orphaner", "FUMIBAKO_ORPHAN_MODE="+mode,
				"FUMIBAKO_WORKER_PIDS="+pids, "FUMIBAKO_WORKER_SCRATCH="+dir)
			if err := coord.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			worker, _ := readPids(t, pids)
			defer func() {
				if p, err := os.FindProcess(worker); err == nil && ProcessAlive(worker) {
					p.Kill()
				}
			}()
			coord.Process.Kill()
			coord.Wait()
			if !waitDead(worker) {
				t.Errorf("worker %d outlived its killed coordinator", worker)
			}
		})
	}
}
