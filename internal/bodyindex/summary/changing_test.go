package summary_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
)

// TestSummaryBelievedUnlessChanging: outside a change the summary's
// entries hold without a look at the folders (a folder whose time moved
// is still believed: nothing stated it); a publish marks the index as
// changing, after which folder times are checked again; Write
// clears the mark; MarkChanging marks an index with a summary and leaves
// one without alone; a renamed index keeps its summary unless marked.
func TestSummaryBelievedUnlessChanging(t *testing.T) {
	root := summaryCorpus(t)
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	if summary.Changing(root, "案件") {
		t.Fatal("marked as changing right after WriteSummary")
	}
	fresh := func(rel string) bool {
		t.Helper()
		s, err := summary.Open(root, "案件")
		if err != nil || s == nil {
			t.Fatalf("OpenSummary: %v, %v", s, err)
		}
		defer s.Close()
		return s.FreshDir(rel) != nil
	}
	// The folder's time moves without fumibako: believed all the same.
	tokyo := filepath.Join(root, "案件", "東京")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(tokyo, future, future); err != nil {
		t.Fatal(err)
	}
	if !fresh("東京") {
		t.Error("unmarked index: an entry was checked against its folder's time")
	}
	// A publish marks the index: the folder's entry no longer holds.
	indextest.Stage(t, tokyo, "新規.txt", indextest.Place("本文", "あたらしい単語"))
	if err := bodyindex.Publish(tokyo, nil); err != nil {
		t.Fatal(err)
	}
	if !summary.Changing(root, "案件") {
		t.Fatal("a publish after the summary did not mark the index as changing")
	}
	if fresh("東京") || !fresh("東京/2024") {
		t.Errorf("marked index: 東京 fresh %v (want false), 東京/2024 fresh %v (want true)", fresh("東京"), fresh("東京/2024"))
	}
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	if summary.Changing(root, "案件") || !fresh("東京") {
		t.Errorf("after WriteSummary: changing %v, 東京 fresh %v", summary.Changing(root, "案件"), fresh("東京"))
	}
	// MarkChanging: an index without a summary needs no mark.
	if err := summary.MarkChanging(root, "ほか"); err != nil || summary.Changing(root, "ほか") {
		t.Errorf("MarkChanging of an index without a summary: %v, marked %v", err, summary.Changing(root, "ほか"))
	}
	if err := summary.MarkChanging(root, "案件"); err != nil || !summary.Changing(root, "案件") {
		t.Fatalf("MarkChanging: %v, marked %v", err, summary.Changing(root, "案件"))
	}
	// A marked index's summary is not carried over to a new name.
	summary.Move(root, "案件", "新案件")
	for _, n := range []string{"案件", "新案件"} {
		if _, err := os.Stat(summary.Path(root, n)); !os.IsNotExist(err) {
			t.Errorf("summary of %s after moving a marked one: %v", n, err)
		}
	}
	if summary.Changing(root, "案件") {
		t.Error("the mark outlived the summary it marked")
	}
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	summary.Move(root, "案件", "新案件")
	if _, err := os.Stat(summary.Path(root, "新案件")); err != nil {
		t.Errorf("an unmarked summary was not moved: %v", err)
	}
}
