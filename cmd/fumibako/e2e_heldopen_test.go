package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// TestIssue14IngestListHeldOpen: ingest_status.tsv open in Excel (on
// Windows a real handle without FILE_SHARE_DELETE, which the retries
// outlast; elsewhere the fault seam refusing the rename the same way) stops
// the run with a message that names the file and says to close it; the
// list is left as it was, and once it is closed the next run takes the
// changed file.
func TestIssue14IngestListHeldOpen(t *testing.T) {
	f := newFixture(t)
	files, err := testcorpus.Generate(f.root, 6, 9)
	if err != nil {
		t.Fatal(err)
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	list := filepath.Join(f.ws, "work", "store", "ingest_status.tsv")
	before, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcorpus.WriteText(filepath.Join(f.root, "追加", "新しいメモ.txt"), "新しいメモの合言葉\n", "utf-8"); err != nil {
		t.Fatal(err)
	}

	release := holdLikeExcel(t, f, list)
	out, errOut, code := f.run("index", "--workers", "2")
	if code != 1 {
		t.Fatalf("exit %d with the list held open, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, list+" に書き込めないため") || !strings.Contains(errOut, "ファイルを閉じ") {
		t.Errorf("stderr does not name the list and say to close it:\n%s", errOut)
	}
	release()
	if after, _ := os.ReadFile(list); !bytes.Equal(after, before) {
		t.Errorf("the list held open was changed:\n%s", after)
	}

	f.env = nil
	f.mustRun("index", "--workers", "2")
	if r := f.row("追加/新しいメモ.txt"); r.State != ingestlist.Done {
		t.Errorf("new file after the list was closed: %s (%s)", r.State, r.Error)
	}
	for _, file := range files {
		if r := f.row(file.Rel); r.State != ingestlist.Done {
			t.Errorf("%s: %s (%s)", file.Rel, r.State, r.Error)
		}
	}
}
