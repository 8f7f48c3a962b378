//go:build unix

package main

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestSourceReplacedByFIFO: a file the crawl saw as a regular file and
// that is a named pipe when its worker opens it (the "fifo" fault hook
// makes the swap in the worker, just before extraction) fails at once
// with its own message instead of holding the worker until the per-file
// deadline; the other files are ingested.
func TestSourceReplacedByFIFO(t *testing.T) {
	f := newFixture(t)
	f.write("pipe.xlsx", "seen by the crawl")
	f.write("pipe.txt", "seen by the crawl")
	f.write("ok.txt", "大丈夫\n")
	f.mustRun("folder", "add", f.root)
	f.env = []string{"FUMIBAKO_TEST_FAULT=fifo:pipe"}
	// A deadline far beyond what a refused file takes, short enough that
	// a worker blocked on the pipe ends the test with the wrong message.
	out := f.mustRun("index", "--workers", "1", "--file-timeout", "1m")
	for _, name := range []string{"pipe.xlsx", "pipe.txt"} {
		if r := f.row(name); r.State != ingestlist.Failed || r.Error != extract.MsgNotRegular {
			t.Errorf("%s row = %+v, want 失敗 %q", name, r, extract.MsgNotRegular)
		}
	}
	if r := f.row("ok.txt"); r.State != ingestlist.Done {
		t.Errorf("ok.txt row = %+v", r)
	}
	if !strings.Contains(out, "（成功: 1 件 / 失敗: 2 件）") {
		t.Errorf("summary:\n%s", out)
	}
}
