package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
)

// pdfFixture copies PDFs of internal/extract/pdf/testdata into the root.
func pdfFixture(f *fixture, names ...string) {
	f.t.Helper()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "extract", "pdf", "testdata", n))
		if err != nil {
			f.t.Fatal(err)
		}
		f.write("PDF/"+n, string(b))
	}
}

// codeCache returns the compiled-code entries of the engine's cache under
// the user cache folder root, with their sizes: wazero's, in its
// per-version folder (not the compile lock and the marker beside it,
// issue 33).
func codeCache(t *testing.T, root string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	dir := filepath.Join(root, "fumibako", "wazero")
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

// TestIssue36DamagedCodeCacheIndex: after the PDF engine's compiled-code
// cache was cut or emptied, the next index reads its PDFs in the same run
// (the worker rebuilds the cache) and the cache is whole again. Before,
// every PDF was 失敗 for good: a cut entry as a broken file, an empty one as
// an unexpected error.
func TestIssue36DamagedCodeCacheIndex(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("the user cache folder is under $HOME/Library on macOS")
	}
	cache := t.TempDir()
	f := newFixture(t)
	// os.UserCacheDir: $XDG_CACHE_HOME on Linux, %LocalAppData% on Windows.
	f.env = []string{"XDG_CACHE_HOME=" + cache, "LocalAppData=" + cache}
	pdfs := []string{"lo-horizontal.pdf", "fpdf-ipag.pdf"}
	pdfFixture(f, pdfs...)
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "1")
	built := codeCache(t, cache)
	if len(built) != 1 {
		t.Fatalf("code cache after the first run: %v, want one entry", built)
	}
	var entry string
	var size int64
	for entry, size = range built {
	}
	tests := []struct {
		name string
		cut  int64
	}{
		{"truncated", size / 3},
		{"empty", 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.Truncate(entry, tt.cut); err != nil {
				t.Fatal(err)
			}
			// The PDFs changed: the run ingests them again.
			mtime := time.Now().Add(time.Duration(i+1) * time.Hour)
			for _, n := range pdfs {
				os.Chtimes(filepath.Join(f.root, "PDF", n), mtime, mtime)
			}
			out := f.mustRun("index", "--workers", "1")
			for _, n := range pdfs {
				if r := f.row("PDF/" + n); r.State != ingestlist.Done || r.Error != "" {
					t.Errorf("%s: %v %q after a run with a %s code cache\n%s", n, r.State, r.Error, tt.name, out)
				}
			}
			if got := codeCache(t, cache); got[entry] != size || len(got) != 1 {
				t.Errorf("code cache after the run: %v, want %s of %d bytes", got, entry, size)
			}
			if out, _, code := f.run("search", "FPDFONE"); code != 0 || !strings.Contains(out, "fpdf-ipag.pdf") {
				t.Errorf("search FPDFONE: exit %d, %q", code, out)
			}
		})
	}
}

// TestIssue36XObjectBombIndex: a form-XObject bomb fails with the memory
// message whether the workers have a cap or none (--worker-memory -1), and
// the other files of the run are ingested. Before, with no cap the worker
// took 4.4 GiB and the bomb failed as a broken file.
func TestIssue36XObjectBombIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a bomb to its memory bound")
	}
	for _, mem := range []string{"-1", "512"} {
		t.Run("worker-memory "+mem, func(t *testing.T) {
			f := newFixture(t)
			pdfFixture(f, "xobject-bomb.pdf", "lo-horizontal.pdf")
			f.mustRun("folder", "add", f.root)
			out := f.mustRun("index", "--workers", "1", "--worker-memory", mem)
			if r := f.row("PDF/xobject-bomb.pdf"); r.State != ingestlist.Failed || r.Error != extract.MsgOutOfMemory {
				t.Errorf("bomb: %v %q, want 失敗 %q\n%s", r.State, r.Error, extract.MsgOutOfMemory, out)
			}
			if r := f.row("PDF/lo-horizontal.pdf"); r.State != ingestlist.Done {
				t.Errorf("lo-horizontal.pdf: %v %q", r.State, r.Error)
			}
		})
	}
}
