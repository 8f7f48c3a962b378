package summary_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestChangingMarkerHeldOpen: the summary held open by another program
// (a backup tool, an editor) as Excel holds a file. Held past
// workspace's retries, WriteSummary fails and the marker stays, so
// searches keep checking folder times instead of believing a summary
// that no longer describes the index; held for a moment, the rename over
// it waits through the retries and the marker is then cleared. Wine
// refuses a rename over a file open without FILE_SHARE_DELETE as Windows
// does, so the Wine lane shows both.
func TestChangingMarkerHeldOpen(t *testing.T) {
	root := summaryCorpus(t)
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	tokyo := filepath.Join(root, "案件", "東京")
	indextest.Stage(t, tokyo, "新規.txt", indextest.Place("本文", "あたらしい単語"))
	if err := bodyindex.Publish(tokyo, nil); err != nil {
		t.Fatal(err)
	}
	if !summary.Changing(root, "案件") {
		t.Fatal("a publish did not mark the index as changing")
	}
	sumPath := summary.Path(root, "案件")

	release := testutil.HoldLikeExcel(t, sumPath)
	if err := summary.Write(root, "案件"); err == nil {
		t.Fatal("WriteSummary replaced a summary held open without FILE_SHARE_DELETE")
	}
	if !summary.Changing(root, "案件") {
		t.Error("the marker was cleared although the new summary was not written")
	}
	release()

	release = testutil.HoldLikeExcel(t, sumPath)
	go func() {
		time.Sleep(300 * time.Millisecond)
		release()
	}()
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatalf("WriteSummary with the summary held for 300 ms: %v", err)
	}
	if summary.Changing(root, "案件") {
		t.Error("the marker outlived the summary written after the holder let go")
	}
	if _, err := os.Stat(summary.ChangingPath(root, "案件")); !os.IsNotExist(err) {
		t.Errorf("marker file: %v", err)
	}
}
