//go:build unix

package extract_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestExtractRefusesFIFO: a source replaced by a named pipe after the
// crawl saw a regular file is refused at once with MsgNotRegular; opening
// it for reading must not wait for a writer (it would hold the worker
// until the per-file deadline).
func TestExtractRefusesFIFO(t *testing.T) {
	for _, name := range []string{"表.xlsx", "メモ.txt", "報告.docx", "資料.pdf", "古い.xls"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte("seen by the crawl"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := extract.Extract(context.Background(), path, name, extract.Options{Scratch: dir})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				// Not a timing assertion: a guard that frees the reader
				// blocked in open (a writer end lets it go) and fails.
				if w, werr := os.OpenFile(path, os.O_WRONLY, 0); werr == nil {
					w.Close()
				}
				t.Fatal("Extract blocked on the named pipe")
			}
			var fe *extract.Error
			if !errors.As(err, &fe) || fe.Msg != extract.MsgNotRegular {
				t.Fatalf("Extract = %v, want %q", err, extract.MsgNotRegular)
			}
		})
	}
}
