package ingestlist_test

import (
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

func TestCountsAndFailures(t *testing.T) {
	rows := []ingestlist.Row{
		{RelPath: `営業\a.xlsx`, State: ingestlist.Done, IngestedAt: "2026/04/01 09:00:00"},
		{RelPath: `営業\b.xls`, State: ingestlist.Failed, Error: "壊れています", IngestedAt: "2026/04/01 10:00:00"},
		{RelPath: `営業\c.doc`, State: ingestlist.Pending, Error: "LibreOffice が見つからないため取り込めません", IngestedAt: "2026/04/02 08:00:00"},
		{RelPath: `ｴｲｷﾞｮｳ\d.txt`, State: ingestlist.Pending},
		{RelPath: `経理\e.pptx`, State: ingestlist.Failed, Error: "パスワード付き", IngestedAt: "2026/04/01 10:00:00"},
		{RelPath: `経理\f.pptx`, State: ingestlist.Done, IngestedAt: "2026/04/03 08:00:00"},
	}
	l := &ingestlist.List{Rows: rows}
	got := l.CountByIndex()
	want := map[string]*ingestlist.Counts{
		workspace.FoldKey("営業"):     {Files: 3, Done: 1, Failed: 2, Last: "2026/04/02 08:00:00"},
		workspace.FoldKey("ｴｲｷﾞｮｳ"): {Files: 1, Pending: 1},
		workspace.FoldKey("経理"):     {Files: 2, Done: 1, Failed: 1, Last: "2026/04/03 08:00:00"},
	}
	if !reflect.DeepEqual(got, want) {
		for k, v := range got {
			t.Logf("%s: %+v", k, *v)
		}
		t.Errorf("CountByIndex differs")
	}
	var paths []string
	for _, r := range l.Failures() {
		paths = append(paths, r.RelPath)
	}
	// Newest first; b.xls and e.pptx share a time and keep list order.
	wantPaths := []string{`営業\c.doc`, `営業\b.xls`, `経理\e.pptx`}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("Failures = %q, want %q", paths, wantPaths)
	}
}
