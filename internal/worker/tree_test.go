package worker

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a worker: with FUMIBAKO_WORKER_HELPER set it
// plays one of these parts instead of running the tests.
//
//	oomexit      exit as Go does when an allocation fails
//	alloc        allocate and touch memory until the OS stops it
//	spawn        start a "sleep" child, write both pids to FUMIBAKO_WORKER_PIDS, wait
//	sleep        wait forever
//	spawnhold    start a "hold" child, then wait
//	hold         allocate and touch 256 MiB, then wait
//	coordinator  start a Slot whose worker spawns, then wait (killed by the test)
//	orphaner     start a serving worker as orphan_test.go says, then wait
//	serve        serve requests as a worker does (orphan_test.go)
func TestMain(m *testing.M) {
	switch os.Getenv("FUMIBAKO_WORKER_HELPER") {
	case "":
		os.Exit(m.Run())
	case "orphaner":
		orphaner()
	case "serve":
		serveHelper()
	case "oomexit":
		os.Stderr.WriteString("fatal error: out of memory\n")
		os.Exit(2)
	case "alloc":
		// 1 GiB at most: a cap that is not enforced ends the test, not
		// the machine.
		var keep [][]byte
		for range 128 {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		os.Exit(7)
	case "spawn":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "FUMIBAKO_WORKER_HELPER=sleep")
		if err := child.Start(); err != nil {
			os.Exit(4)
		}
		writePids(fmt.Sprintf("worker %d\nchild %d\n", os.Getpid(), child.Process.Pid))
		select {}
	case "sleep":
		select {}
	case "spawnhold":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "FUMIBAKO_WORKER_HELPER=hold")
		if err := child.Start(); err != nil {
			os.Exit(4)
		}
		select {}
	case "hold":
		b := make([]byte, 256<<20)
		for i := range b {
			b[i] = 1
		}
		select {}
	case "coordinator":
		s := NewSlot(Config{Exe: os.Args[0], Env: []string{"FUMIBAKO_WORKER_HELPER=spawn"}}, os.Getenv("FUMIBAKO_WORKER_SCRATCH"))
		if err := s.start(); err != nil {
			os.Exit(5)
		}
		select {}
	}
	os.Exit(9)
}

func writePids(s string) {
	p := os.Getenv("FUMIBAKO_WORKER_PIDS")
	os.WriteFile(p+".tmp", []byte(s), 0o644)
	os.Rename(p+".tmp", p)
}

// readPids waits for the spawn helper's pid file.
func readPids(t *testing.T, path string) (worker, child int) {
	t.Helper()
	for range 300 {
		f, err := os.Open(path)
		if err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				k, v, _ := strings.Cut(sc.Text(), " ")
				n, _ := strconv.Atoi(v)
				switch k {
				case "worker":
					worker = n
				case "child":
					child = n
				}
			}
			f.Close()
			if worker != 0 && child != 0 {
				return worker, child
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no pids in %s", path)
	return 0, 0
}

// waitDead polls until pid is gone (killing is asynchronous on Windows).
// A zombie counts as gone: an orphan waits for a reaper that a container's
// first process may never be.
func waitDead(pid int) bool {
	for range 200 {
		if !ProcessAlive(pid) {
			return true
		}
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(st), ')'); i > 0 && strings.HasPrefix(string(st[i+1:]), " Z") {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// fakeTree wraps the OS tree and says the OS stopped the worker at the
// memory cap, as Windows' job does.
type fakeTree struct {
	procTree
	over bool
}

func (f fakeTree) overMemory() bool { return f.over }

// TestMemoryCapReported: a worker that the OS stopped at the cap gets
// DESIGN's memory message (OutOfMemory); one that died otherwise is a crash.
func TestMemoryCapReported(t *testing.T) {
	for _, over := range []bool{true, false} {
		t.Run(fmt.Sprint("over=", over), func(t *testing.T) {
			defer func(old func(*exec.Cmd, int64) (procTree, error)) { newTree = old }(newTree)
			newTree = func(cmd *exec.Cmd, limit int64) (procTree, error) {
				tr, err := osTree(cmd, limit)
				return fakeTree{tr, over}, err
			}
			res := runOne(t, Config{Exe: os.Args[0], Env: []string{"FUMIBAKO_WORKER_HELPER=oomexit"}, MemLimit: 64 << 20})
			want := map[bool]Outcome{true: OutOfMemory, false: Crashed}[over]
			if res.Outcome != want {
				t.Fatalf("outcome = %d (%s), want %d", res.Outcome, res.Msg, want)
			}
			if over && res.Msg != MsgOutOfMemory {
				t.Fatalf("message = %q, want %q", res.Msg, MsgOutOfMemory)
			}
		})
	}
}

// runOne sends one request through a slot and returns its result.
func runOne(t *testing.T, cfg Config) Result {
	t.Helper()
	s := NewSlot(cfg, filepath.Join(t.TempDir(), "w1"))
	in := make(chan Request, 1)
	in <- Request{ID: 1, Path: "x", Name: "x.txt", Stage: t.TempDir()}
	close(in)
	var got []Result
	s.Pipeline(in, func(_ Request, r Result) { got = append(got, r) }, nil)
	if len(got) != 1 {
		t.Fatalf("%d results, want 1", len(got))
	}
	return got[0]
}

// TestKillEndsChildren: killing a worker ends the processes it started
// (LibreOffice): its process group on Unix, its Job Object on Windows.
func TestKillEndsChildren(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	s := NewSlot(Config{Exe: os.Args[0], Env: []string{"FUMIBAKO_WORKER_HELPER=spawn", "FUMIBAKO_WORKER_PIDS=" + pids}},
		filepath.Join(t.TempDir(), "w1"))
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	worker, child := readPids(t, pids)
	s.kill()
	for name, pid := range map[string]int{"worker": worker, "child": child} {
		if !waitDead(pid) {
			t.Errorf("%s %d still alive after the kill", name, pid)
		}
	}
}
