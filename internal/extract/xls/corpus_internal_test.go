package xls

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestNativeCorpus reads every .xls and .xlsb of the shared corpus with the
// native readers: each gives places or an *Error (never a recovered
// panic) within a few seconds, and allocates a bounded amount of memory,
// hostile files (calamine's OOM_alloc*.xls) included.
func TestNativeCorpus(t *testing.T) {
	root := testutil.Corpus(t)
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch strings.ToLower(filepath.Ext(p)) {
			case ".xls", ".xlsb":
				files = append(files, p)
			}
		}
		return nil
	})
	if len(files) == 0 {
		testutil.CorpusMissing(t, "no .xls or .xlsb under %s", root)
	}
	var read, failed int
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		r := extract.NativeReaders()[strings.ToLower(filepath.Ext(f))]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan struct{})
		var (
			res *extract.Result
			err error
		)
		go func() {
			defer close(done)
			res, err = r(context.Background(), f, extract.Options{Scratch: t.TempDir()})
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: no result after 60 s", rel)
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 512<<20 {
			t.Errorf("%s: allocated %d MiB", rel, d>>20)
		}
		if err != nil {
			var e *extract.Error
			if !errors.As(err, &e) {
				t.Errorf("%s: error %v is no *Error", rel, err)
			} else if e.Cause != nil && strings.Contains(e.Cause.Error(), "panic while reading") {
				t.Errorf("%s: %v", rel, e.Cause)
			}
			failed++
			continue
		}
		if res == nil {
			t.Errorf("%s: nil result without error", rel)
		}
		read++
	}
	t.Logf("%d files read, %d failed with a message (they go to LibreOffice or are encrypted)", read, failed)
}
