package watch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/workspace"
)

// harness runs Watch with a fake indexing run that reports the paths of
// every run on a channel.
type harness struct {
	runs     chan map[string][]string
	overflow chan struct{}
	stop     chan struct{}
	done     chan error
	status   chan watch.Status
}

func start(t *testing.T, roots []workspace.Root, noEvents string) *harness {
	return startWith(t, roots, noEvents, 0)
}

func startWith(t *testing.T, roots []workspace.Root, noEvents string, maxDelay time.Duration) *harness {
	t.Helper()
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.SaveSettings(&workspace.Settings{Roots: roots}); err != nil {
		t.Fatal(err)
	}
	h := &harness{runs: make(chan map[string][]string, 100), overflow: make(chan struct{}), stop: make(chan struct{}),
		done: make(chan error, 1), status: make(chan watch.Status, 1000)}
	go func() {
		_, err := watch.Watch(watch.Options{
			Index:     indexer.Options{Workspace: ws},
			Debounce:  20 * time.Millisecond,
			MaxDelay:  maxDelay,
			PollEvery: 50 * time.Millisecond,
			FullEvery: -1,
			Stop:      h.stop,
			Overflow:  h.overflow,
			NoEvents:  func(r workspace.Root) bool { return r.Name == noEvents },
			Observe: func(st watch.Status) {
				select {
				case h.status <- st:
				default:
				}
			},
			Run: func(o indexer.Options) (*indexer.Summary, error) {
				if o.Lock == nil {
					t.Error("a run without the watcher's lock")
				}
				h.runs <- o.Paths
				return &indexer.Summary{}, nil
			},
		})
		h.done <- err
	}()
	t.Cleanup(func() { close(h.stop); <-h.done })
	if got := <-h.runs; got != nil {
		t.Fatalf("first run paths = %v, want a full run", got)
	}
	for st := range h.status {
		if st.Doing == watch.DoingWait {
			break
		}
	}
	return h
}

func (h *harness) next(t *testing.T) map[string][]string {
	t.Helper()
	return <-h.runs
}

func TestBatchesAndIgnores(t *testing.T) {
	dir := t.TempDir()
	h := start(t, []workspace.Root{{Name: "営業", Path: dir}}, "")
	os.WriteFile(filepath.Join(dir, "~$a.xlsx"), []byte("x"), 0o644) // owner file: no run
	os.WriteFile(filepath.Join(dir, "tmp123"), []byte("x"), 0o644)   // temp name: no run
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte("x"), 0o644)
	}
	got := map[string]bool{}
	for len(got) < 50 {
		for _, p := range h.next(t)["営業"] {
			got[p] = true
		}
	}
	for p := range got {
		if p == "~$a.xlsx" || p == "tmp123" {
			t.Errorf("run over ignored path %q", p)
		}
	}
}

// TestRescanFallback: a root without notifications, and an overflowed
// queue, fall back to rescans of the whole root, shown in the status.
func TestRescanFallback(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	h := start(t, []workspace.Root{{Name: "a", Path: a}, {Name: "b", Path: b}}, "a")
	if got := h.next(t); !reflect.DeepEqual(got, map[string][]string{"a": nil}) {
		t.Errorf("rescan of a = %v, want the whole root a", got)
	}
	h.overflow <- struct{}{}
	for {
		st := <-h.status
		if len(st.Rescan) == 2 {
			if st.Rescan[0].Reason != watch.ReasonNoEvents || st.Rescan[1].Reason != watch.ReasonOverflow {
				t.Errorf("rescan reasons = %+v", st.Rescan)
			}
			break
		}
	}
	for {
		if got := h.next(t); got == nil || reflect.DeepEqual(got, map[string][]string{"b": nil}) {
			break
		}
	}
}

// TestRootGoneAndBack: a root that disappears goes to rescan mode (its
// rows stay: a missing root is not crawled); when it comes back, the next
// rescan watches it again, and events flow again.
func TestRootGoneAndBack(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "r")
	os.Mkdir(dir, 0o755)
	h := start(t, []workspace.Root{{Name: "r", Path: dir}}, "")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, h, func(st watch.Status) bool { return len(st.Rescan) == 1 && st.Rescan[0].Reason == watch.ReasonMissing })
	os.Mkdir(dir, 0o755)
	back := waitStatus(t, h, func(st watch.Status) bool { return len(st.Rescan) == 0 })
	// The rescan of the root that came back ends first.
	waitStatus(t, h, func(st watch.Status) bool { return st.Runs > back.Runs && st.Doing == watch.DoingWait })
	os.WriteFile(filepath.Join(dir, "back.txt"), []byte("x"), 0o644)
	for {
		if got := h.next(t); reflect.DeepEqual(got, map[string][]string{"r": {"back.txt"}}) {
			break
		}
	}
}

func waitStatus(t *testing.T, h *harness, ok func(watch.Status) bool) watch.Status {
	t.Helper()
	for {
		select {
		case st := <-h.status:
			if ok(st) {
				return st
			}
		case <-h.runs: // rescans of the missing root
		}
	}
}

// TestSteadyStream: events that never pause still get runs (MaxDelay):
// a run comes while the writer is still writing.
func TestSteadyStream(t *testing.T) {
	dir := t.TempDir()
	h := startWith(t, []workspace.Root{{Name: "r", Path: dir}}, "", 100*time.Millisecond)
	stop := make(chan struct{})
	writing := make(chan struct{})
	go func() {
		defer close(writing)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.txt", i%50)), []byte("x"), 0o644)
		}
	}()
	got := h.next(t) // the writer never stops on its own
	close(stop)
	<-writing
	if len(got["r"]) == 0 {
		t.Errorf("run during the stream = %v, want paths of r", got)
	}
}
