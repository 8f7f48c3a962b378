package pdf

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// The engine is PDFium compiled to WebAssembly, run by wazero inside the
// worker process (no cgo, no helper program): a hostile PDF can at worst
// trap the module or exhaust its bounded memory, and the worker's
// per-file deadline kills the process if it hangs. bench/pdf.md has the
// measurements that chose it.
//
// Compiling the 5.8 MB module takes seconds, so the compiled code is kept
// in wazero's file cache under the user's cache folder (keyed by module
// and wazero version; wazero writes it through a temporary file and a
// rename, so concurrent workers are safe). A cold worker pays the
// compilation once per machine; a warm one starts the engine in ~0.1 s.

// memoryLimitPages bounds the module's linear memory (64 KiB pages): 1 GiB.
const memoryLimitPages = 16384

// cacheDirName is the folder under os.UserCacheDir holding compiled code.
const cacheDirName = "fumibako/wazero"

var engine struct {
	sync.Mutex
	pool pdfium.Pool
	inst pdfium.Pdfium
	err  error
	once bool
}

// instance returns the worker's PDFium instance, starting the engine on
// the first PDF. The caller holds engine's lock.
func instance() (pdfium.Pdfium, error) {
	if !engine.once {
		engine.once = true
		engine.pool, engine.err = newPool()
	}
	if engine.err != nil {
		return nil, engine.err
	}
	if engine.inst == nil {
		inst, err := engine.pool.GetInstance(time.Minute)
		if err != nil {
			return nil, fmt.Errorf("extract: pdfium instance: %w", err)
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
}

func newPool() (pdfium.Pool, error) {
	rc := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(memoryLimitPages)
	if dir, err := os.UserCacheDir(); err == nil {
		if cc, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, filepath.FromSlash(cacheDirName))); err == nil {
			rc = rc.WithCompilationCache(cc)
		}
	}
	pool, err := webassembly.Init(webassembly.Config{
		Context:  context.Background(),
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
		return nil, fmt.Errorf("extract: start pdfium: %w", err)
	}
	return pool, nil
}
