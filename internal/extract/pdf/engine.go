package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The engine is PDFium compiled to WebAssembly, run by wazero inside the
// worker process (no cgo, no helper program): a hostile PDF can at worst
// trap the module or exhaust its bounded memory (memory.go), and the
// worker's per-file deadline kills the process if it hangs. bench/pdf.md
// has the measurements that chose it.
//
// Compiling the 5.8 MB module takes seconds, so the compiled code is kept
// in wazero's file cache under the user's cache folder (keyed by module
// and wazero version; wazero writes it through a temporary file and a
// rename, so concurrent workers are safe). A cold worker pays the
// compilation once per machine; a warm one starts the engine in ~0.1 s.
//
// The code is compiled once per machine and engine version (issue 33):
// the first worker to start the engine takes a lock file in the cache
// folder (compile.lock) and compiles while the others wait for the lock,
// then load what it wrote; a marker file named after the engine's version
// (compiled-<go-pdfium>-<wazero>) says the code is there. Until it is,
// the worker tells the coordinator (extract.Options.Preparing) that the
// file waits for the preparation, which the progress line shows
// (MsgPreparing); the preparation does not count against the file's
// deadline. Before, every worker of a cold run compiled at the same time
// (two workers: about 7 s of CPU, 7.5–16 s to the first PDF).
//
// The cache is disposable (issue 36): an entry that fails to load (cut,
// empty, overwritten) fails the compilation, so the entries are deleted
// and the engine is started once more, which compiles and writes them
// again; a cache folder that cannot be written is then left out. Only when
// the engine cannot start even so is it unavailable: an
// *extract.Unavailable, the run's message (MsgEngine) and never the
// file's failure, so the PDF stays 未取り込み and a later run reads it.

// MsgEngine is the run's message when the PDF engine cannot be prepared
// (issue 36): the PDFs stay 未取り込み, the run goes on with other files.
const MsgEngine = "PDF を読む部品を準備できませんでした。PDF は未取り込みのまま残し、失敗にはしません（次のインデックス作成でもう一度取り込みます。ほかのファイルの取り込みは続けます）"

// MsgPreparing is the progress line's note while a worker makes the
// engine's compiled code, or waits for another worker making it: once
// per machine and version (issue 33).
const MsgPreparing = "PDF を読む準備をしています（初回だけ）"

// cacheDirName is the folder under os.UserCacheDir holding compiled code.
const cacheDirName = "fumibako/wazero"

// compileLockName is the lock file one worker holds in the cache folder
// while it compiles; compileWait is how long another waits for it before
// it compiles on its own (a compile takes seconds; a worker stuck holding
// the lock is killed by its deadline, which frees the lock).
const (
	compileLockName = "compile.lock"
	compileWait     = 5 * time.Minute
	compilePoll     = 100 * time.Millisecond
)

// cacheRoot is the per-user cache folder (os.UserCacheDir; a seam that
// tests point at a folder of their own).
var cacheRoot = os.UserCacheDir

var engine struct {
	sync.Mutex
	pool pdfium.Pool
	inst pdfium.Pdfium
	err  error
	once bool
	mem  *memoryBound // the linear memory's bound (memory.go)
	// glyphChars counts the characters the instance has looked at one
	// by one (glyphs.go), whose handles it keeps until it closes.
	glyphChars int
}

// instance returns the worker's PDFium instance, starting the engine on
// the first PDF with memLimit, the worker's memory cap (0 = none);
// preparing (may be nil) is told while the code is compiled. The caller
// holds engine's lock.
func instance(memLimit int64, preparing func(string)) (pdfium.Pdfium, error) {
	if !engine.once {
		engine.once = true
		engine.mem = newMemoryBound(memLimit)
		engine.pool, engine.inst, engine.err = start(engine.mem, preparing)
	}
	if engine.err != nil {
		return nil, engine.err
	}
	if engine.inst == nil {
		inst, err := engine.pool.GetInstance(time.Minute)
		if err != nil {
			return nil, unavailable(fmt.Errorf("extract: pdfium instance: %w", err))
		}
		engine.inst = inst
	}
	return engine.inst, nil
}

// discard drops the instance after a failure, so that a document that
// left the module in a bad state does not affect the next one.
func discard() {
	if engine.inst != nil {
		engine.inst.Close()
		engine.inst = nil
	}
	engine.glyphChars = 0
}

// unavailable is the engine's own failure: the run's, not the file's.
func unavailable(cause error) error {
	return &extract.Unavailable{Msg: MsgEngine, Cause: cause}
}

// start starts the engine with the compiled-code cache; when that fails,
// it deletes the cache's entries and starts once more (a damaged entry is
// compiled and written again), then once without the cache (a folder that
// cannot be written).
func start(mem *memoryBound, preparing func(string)) (pdfium.Pool, pdfium.Pdfium, error) {
	dir := cacheDir()
	if dir != "" {
		if !compiled(dir) {
			tell(preparing, MsgPreparing)
			defer tell(preparing, "")
		}
		if err := workspace.MkdirAll(dir); err == nil {
			// Without the lock (a folder that cannot hold it, a
			// wait that ran out) this worker compiles on its own, as
			// before.
			if l, err := workspace.LockFile(filepath.Join(dir, compileLockName), compilePoll, compileWait); err == nil {
				defer l.Release()
			}
		}
	}
	pool, inst, err := startWith(dir, mem)
	if err == nil || dir == "" {
		if err != nil {
			err = unavailable(err)
		} else if dir != "" {
			markCompiled(dir)
		}
		return pool, inst, err
	}
	errs := []error{err}
	if cerr := clearCache(dir); cerr != nil {
		errs = append(errs, cerr)
	}
	if pool, inst, err = startWith(dir, mem); err == nil {
		markCompiled(dir)
		return pool, inst, nil
	}
	errs = append(errs, fmt.Errorf("after rebuilding the cache: %w", err))
	if pool, inst, err = startWith("", mem); err == nil {
		return pool, inst, nil
	}
	errs = append(errs, fmt.Errorf("without the cache: %w", err))
	return nil, nil, unavailable(errors.Join(errs...))
}

// tell calls preparing, when there is one.
func tell(preparing func(string), msg string) {
	if preparing != nil {
		preparing(msg)
	}
}

// compiledMarker is the marker file saying the compiled code of this
// engine version is in the cache folder dir: the versions of go-pdfium
// (which embeds the PDFium module) and of wazero (which compiles it), as
// the binary records them.
func compiledMarker(dir string) string {
	version := func(path string) string { return "dev" }
	if bi, ok := debug.ReadBuildInfo(); ok {
		version = func(path string) string {
			for _, m := range bi.Deps {
				if m.Path == path {
					if m.Replace != nil {
						m = m.Replace
					}
					return m.Version
				}
			}
			return "dev"
		}
	}
	name := "compiled-" + version("github.com/klippa-app/go-pdfium") + "-" + version("github.com/tetratelabs/wazero")
	return filepath.Join(dir, strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, name))
}

// compiled reports whether the cache folder holds this version's code.
func compiled(dir string) bool {
	_, err := os.Stat(compiledMarker(dir))
	return err == nil
}

// markCompiled records that the cache folder holds this version's code (a
// marker that cannot be written only costs the next worker the note).
func markCompiled(dir string) {
	if !compiled(dir) {
		workspace.WriteFileAtomic(compiledMarker(dir), nil)
	}
}

// cacheDir is the compiled-code cache folder ("" when the user has none).
func cacheDir() string {
	root, err := cacheRoot()
	if err != nil || root == "" {
		return ""
	}
	return filepath.Join(root, filepath.FromSlash(cacheDirName))
}

// clearCache deletes the cache's entries (wazero keeps them in one folder
// per wazero version below dir) and the compiled marker; another worker's
// temporary files, which it renames into place, and the compile lock,
// which this worker holds, are left alone.
func clearCache(dir string) error {
	var errs []error
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			return nil
		}
		if d.Type().IsRegular() && !strings.HasSuffix(d.Name(), ".tmp") && d.Name() != compileLockName {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		return nil
	})
	if len(errs) > 0 {
		return fmt.Errorf("extract: clear the pdfium code cache %s: %w", dir, errors.Join(errs...))
	}
	return nil
}

// startWith starts the engine with the code cache in dir ("" = none) and
// takes its instance, so that a module that compiles but cannot be
// instantiated counts as a failure to start (startEngine; a seam that
// tests make fail).
var startWith = startEngine

func startEngine(dir string, mem *memoryBound) (pdfium.Pool, pdfium.Pdfium, error) {
	rc := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(mem.pages())
	if dir != "" {
		cc, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("extract: pdfium code cache %s: %w", dir, err)
		}
		rc = rc.WithCompilationCache(cc)
	}
	pool, err := webassembly.Init(webassembly.Config{
		// The linear memory comes from mem (memory.go), which tells
		// a document that ran out of it from a broken one.
		Context:  experimental.WithMemoryAllocator(context.Background(), mem),
		MinIdle:  1,
		MaxIdle:  1,
		MaxTotal: 1,
		// No file system: documents are passed as readers.
		FSConfig:      wazero.NewFSConfig(),
		RuntimeConfig: rc,
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("extract: start pdfium: %w", err)
	}
	inst, err := pool.GetInstance(time.Minute)
	if err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("extract: pdfium instance: %w", err)
	}
	return pool, inst, nil
}
