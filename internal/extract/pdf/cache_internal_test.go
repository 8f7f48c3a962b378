package pdf

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klippa-app/go-pdfium"

	"github.com/fumibako/fumibako/internal/extract"
)

// resetEngine stops the worker's engine, so that the next read starts it
// again (as a new worker does).
func resetEngine() {
	engine.Lock()
	defer engine.Unlock()
	discard()
	if engine.pool != nil {
		engine.pool.Close()
	}
	engine.pool, engine.err, engine.once, engine.mem = nil, nil, false, nil
}

// privateCache points the engine at a cache folder of the test's own and
// stops the engine before and after.
func privateCache(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	old := cacheRoot
	cacheRoot = func() (string, error) { return root, nil }
	resetEngine()
	t.Cleanup(func() {
		resetEngine()
		cacheRoot = old
	})
	return filepath.Join(root, filepath.FromSlash(cacheDirName))
}

// cacheEntries returns the compiled-code entries under dir with their
// sizes: wazero's, in its per-version folder (not the compile lock and
// the marker beside it).
func cacheEntries(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasSuffix(p, ".tmp") && filepath.Dir(p) != dir {
			if info, err := d.Info(); err == nil {
				m[p] = info.Size()
			}
		}
		return nil
	})
	return m
}

// readsHorizontal reads lo-horizontal.pdf and checks a token of page 1.
func readsHorizontal(t *testing.T) {
	t.Helper()
	r, err := readFixture(t, "lo-horizontal.pdf")
	if err != nil {
		t.Fatalf("read with a damaged code cache: %v (%s)", err, detail(err))
	}
	if got := strings.Join(places(r)["ページ001"], "\n"); !strings.Contains(got, "PAGEONEAA") {
		t.Fatalf("page 1 = %q", got)
	}
}

func detail(err error) string {
	var xerr *extract.Error
	if errors.As(err, &xerr) && xerr.Cause != nil {
		return xerr.Cause.Error()
	}
	return ""
}

// TestIssue36DamagedCodeCache: a compiled-code cache entry that fails to
// load (cut, empty, overwritten; the cache folder replaced by a file) is
// deleted and rebuilt, and the document that met it is read by the same
// worker. Before, every PDF failed for good as a broken file (cut) or an
// unexpected error (empty).
func TestIssue36DamagedCodeCache(t *testing.T) {
	dir := privateCache(t)
	readsHorizontal(t) // compiles and fills the cache
	built := cacheEntries(t, dir)
	if len(built) != 1 {
		t.Fatalf("cache entries after the first start: %v, want one", built)
	}
	var entry string
	var size int64
	for entry, size = range built {
	}
	tests := []struct {
		name   string
		damage func(t *testing.T)
	}{
		{"truncated", func(t *testing.T) { os.Truncate(entry, size/2) }},
		{"empty", func(t *testing.T) { os.Truncate(entry, 0) }},
		{"garbage", func(t *testing.T) { os.WriteFile(entry, []byte(strings.Repeat("壊れた", 1000)), 0o600) }},
		{"folder replaced by a file", func(t *testing.T) {
			os.RemoveAll(dir)
			os.WriteFile(dir, []byte("not a folder"), 0o600)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.damage(t)
			resetEngine() // a fresh worker meets the damaged cache
			readsHorizontal(t)
			if got := cacheEntries(t, dir); got[entry] != size || len(got) != 1 {
				t.Fatalf("cache after the rebuild: %v, want %s of %d bytes", got, entry, size)
			}
		})
	}
}

// TestEngineUnavailable: an engine that cannot start, with the cache
// rebuilt and without it, is the run's problem (extract.Unavailable with
// MsgEngine), never the file's failure; it was tried with the cache, once
// more after clearing it and once without it.
func TestEngineUnavailable(t *testing.T) {
	dir := privateCache(t)
	old := startWith
	defer func() { startWith = old }()
	var tried []string
	startWith = func(d string, _ *memoryBound) (pdfium.Pool, pdfium.Pdfium, error) {
		tried = append(tried, d)
		return nil, nil, errors.New("wasm: cannot instantiate")
	}
	for i := range 2 {
		_, err := readFixture(t, "lo-horizontal.pdf")
		var unav *extract.Unavailable
		if !errors.As(err, &unav) || unav.Msg != MsgEngine {
			t.Fatalf("read %d: %v (%T), want *extract.Unavailable with MsgEngine", i, err, err)
		}
		var xerr *extract.Error
		if errors.As(err, &xerr) {
			t.Fatalf("read %d: a file's failure in the chain: %v", i, xerr)
		}
	}
	// The worker tries once: the second document gets the same answer.
	if want := []string{dir, dir, ""}; strings.Join(tried, "|") != strings.Join(want, "|") {
		t.Errorf("starts tried with cache folders %q, want %q", tried, want)
	}
}

// TestIssue33CompileOnce: workers starting the engine on an empty cache
// compile one at a time under the cache folder's lock (the later one then
// loads what the first wrote), both tell that the file waits for the
// preparation (MsgPreparing, then ""), and once the code is there a
// worker starts without the note.
func TestIssue33CompileOnce(t *testing.T) {
	dir := privateCache(t)
	old := startWith
	defer func() { startWith = old }()
	var mu sync.Mutex
	running, most, calls := 0, 0, 0
	startWith = func(d string, _ *memoryBound) (pdfium.Pool, pdfium.Pdfium, error) {
		mu.Lock()
		running++
		calls++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(300 * time.Millisecond) // a compile
		mu.Lock()
		running--
		mu.Unlock()
		return nil, nil, nil
	}
	notes := make([][]string, 3)
	startOne := func(i int) {
		start(newMemoryBound(0), func(msg string) {
			mu.Lock()
			notes[i] = append(notes[i], msg)
			mu.Unlock()
		})
	}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); startOne(i) }()
	}
	wg.Wait()
	if most != 1 || calls != 2 {
		t.Errorf("starts: %d at once at most, %d in all; want 1 and 2", most, calls)
	}
	for i := range 2 {
		if want := []string{MsgPreparing, ""}; !reflect.DeepEqual(notes[i], want) {
			t.Errorf("worker %d told %q, want %q", i, notes[i], want)
		}
	}
	if !compiled(dir) {
		t.Errorf("no marker %s after a start", compiledMarker(dir))
	}
	startOne(2)
	if notes[2] != nil {
		t.Errorf("a start with the code there told %q, want nothing", notes[2])
	}
}
