package plan_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/workspace"
)

var t0 = time.Date(2025, 1, 10, 12, 34, 56, 0, time.Local)

func file(rel string, size int64, cloud bool) crawl.File {
	return crawl.File{RelPath: rel, ModTime: t0, Size: size, CloudOnly: cloud}
}

func row(rel string, size int64, st ingestlist.State, ver int, errText string) ingestlist.Row {
	r := ingestlist.Row{RelPath: rel, Updated: ingestlist.FormatFileTime(t0), Size: size, State: st, Version: ver, Error: errText}
	if st == ingestlist.Done {
		r.HasTSVCount, r.TSVCount = true, 1
	}
	return r
}

func listOf(_ *ingestlist.List, rows []ingestlist.Row) *ingestlist.List {
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, nil, rows); err != nil {
		panic(err)
	}
	out, err := ingestlist.Read(&buf)
	if err != nil {
		panic(err)
	}
	return out
}

func TestDecide(t *testing.T) {
	const X = `営業\x.xlsx`
	tests := []struct {
		name     string
		file     crawl.File
		prev     []ingestlist.Row
		complete bool
		retry    bool
		again    bool        // Input.Again says yes (a file waiting for OCR, issue 29)
		reason   plan.Reason // -1: not a target
		rowState ingestlist.State
		noRow    bool
		dropped  bool
	}{
		{name: "new", file: file(X, 10, false), reason: plan.New, rowState: ingestlist.Pending},
		{name: "done", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: true, reason: -1, rowState: ingestlist.Done},
		{name: "outdated", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 3, "")}, complete: true, reason: plan.Outdated, rowState: ingestlist.Pending},
		{name: "empty version is 1, outdated", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 0, "")}, complete: true, reason: plan.Outdated, rowState: ingestlist.Pending},
		{name: "lost", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: false, reason: plan.Lost, rowState: ingestlist.Pending},
		{name: "failed skipped", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Failed, 0, "bad")}, reason: -1, rowState: ingestlist.Failed},
		{name: "failed retried", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Failed, 0, "bad")}, retry: true, reason: plan.Failed, rowState: ingestlist.Pending},
		{name: "pending", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Pending, 0, "")}, reason: plan.Pending, rowState: ingestlist.Pending},
		{name: "postponed is pending", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Pending, 0, "LibreOffice が見つからない")}, reason: plan.Pending, rowState: ingestlist.Pending},
		{name: "updated size", file: file(X, 11, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: true, reason: plan.Updated, rowState: ingestlist.Pending},
		{name: "updated failed", file: file(X, 11, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Failed, 0, "bad")}, reason: plan.Updated, rowState: ingestlist.Pending},
		{name: "case-insensitive key", file: file(`営業\X.XLSX`, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: true, reason: -1, rowState: ingestlist.Done},
		// Issue 9: cloud-only files.
		{name: "cloud new: no row", file: file(X, 10, true), reason: -1, noRow: true},
		{name: "cloud done: row kept", file: file(X, 99, true), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: true, reason: -1, rowState: ingestlist.Done},
		{name: "cloud failed: row kept", file: file(X, 10, true), prev: []ingestlist.Row{row(X, 10, ingestlist.Failed, 0, "bad")}, reason: -1, rowState: ingestlist.Failed},
		{name: "cloud pending: no row, content dropped", file: file(X, 10, true), prev: []ingestlist.Row{row(X, 10, ingestlist.Pending, 0, "")}, reason: -1, noRow: true, dropped: true},
		// Issue 29: a 済 file waiting for OCR once an engine is found.
		{name: "again: done read again", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: true, again: true, reason: plan.Outdated, rowState: ingestlist.Pending},
		{name: "again: failed stays skipped", file: file(X, 10, false), prev: []ingestlist.Row{row(X, 10, ingestlist.Failed, 0, "bad")}, again: true, reason: -1, rowState: ingestlist.Failed},
		{name: "cloud lost index: 済 kept", file: file(X, 10, true), prev: []ingestlist.Row{row(X, 10, ingestlist.Done, 4, "")}, complete: false, reason: -1, rowState: ingestlist.Done},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan.Decide(plan.Input{
				Root:        workspace.Root{Name: "営業"},
				Crawl:       &crawl.Result{Files: []crawl.File{tt.file}},
				Prev:        listOf(nil, tt.prev),
				Complete:    func(ingestlist.Row) bool { return tt.complete },
				RetryFailed: tt.retry,
				Version:     func(string) int { return 4 },
				Again:       func(string) bool { return tt.again },
			})
			if tt.reason < 0 && len(p.Targets) != 0 || tt.reason >= 0 && (len(p.Targets) != 1 || p.Targets[0].Reason != tt.reason) {
				t.Fatalf("Targets = %+v, want reason %d", p.Targets, tt.reason)
			}
			if tt.noRow {
				if len(p.Rows) != 0 {
					t.Fatalf("Rows = %+v, want none", p.Rows)
				}
			} else if len(p.Rows) != 1 || p.Rows[0].State != tt.rowState {
				t.Fatalf("Rows = %+v, want one %s", p.Rows, tt.rowState)
			} else if tt.reason < 0 && !reflect.DeepEqual(p.Rows[0], tt.prev[0]) {
				t.Fatalf("kept row = %+v, want %+v unchanged", p.Rows[0], tt.prev[0])
			}
			if got := len(p.CloudDropped) == 1; got != tt.dropped {
				t.Fatalf("CloudDropped = %+v, want dropped=%v", p.CloudDropped, tt.dropped)
			}
		})
	}
}

func TestDecideDeletions(t *testing.T) {
	prev := listOf(nil, []ingestlist.Row{
		row(`営業\gone.txt`, 1, ingestlist.Done, 1, ""),
		row(`経理\other.txt`, 1, ingestlist.Done, 1, ""),
	})
	for _, incomplete := range []bool{false, true} {
		p := plan.Decide(plan.Input{Root: workspace.Root{Name: "営業"}, Crawl: &crawl.Result{Incomplete: incomplete}, Prev: prev, Version: func(string) int { return 1 }})
		if incomplete && (len(p.Removed) != 0 || len(p.Rows) != 1) {
			t.Errorf("incomplete crawl: Removed=%v Rows=%v, want the row kept", p.Removed, p.Rows)
		}
		if !incomplete && (len(p.Removed) != 1 || len(p.Rows) != 0) {
			t.Errorf("complete crawl: Removed=%v Rows=%v, want the row removed", p.Removed, p.Rows)
		}
	}
}

// TestDecideScope: a scoped crawl (a watch run) removes only the unseen
// rows inside its scope and keeps every other row of the root unchanged.
func TestDecideScope(t *testing.T) {
	prev := listOf(nil, []ingestlist.Row{
		row(`営業\keep.txt`, 1, ingestlist.Done, 1, ""),
		row(`営業\sub\gone.txt`, 1, ingestlist.Done, 1, ""),
		row(`営業\sub\deep\gone2.txt`, 1, ingestlist.Done, 1, ""),
		row(`営業\subway.txt`, 1, ingestlist.Done, 1, ""),
		row(`営業\edit.txt`, 1, ingestlist.Done, 1, ""),
	})
	p := plan.Decide(plan.Input{Root: workspace.Root{Name: "営業"}, Prev: prev, Version: func(string) int { return 1 },
		Crawl: &crawl.Result{Files: []crawl.File{file(`営業\edit.txt`, 2, false)}},
		Scope: []string{`営業\SUB`, `営業\edit.txt`}})
	var removed, kept []string
	for _, r := range p.Removed {
		removed = append(removed, r.RelPath)
	}
	for _, r := range p.Rows {
		kept = append(kept, r.RelPath+":"+string(r.State))
	}
	if want := []string{`営業\sub\gone.txt`, `営業\sub\deep\gone2.txt`}; !reflect.DeepEqual(removed, want) {
		t.Errorf("Removed = %q, want %q", removed, want)
	}
	if want := []string{`営業\edit.txt:未取り込み`, `営業\keep.txt:済`, `営業\subway.txt:済`}; !reflect.DeepEqual(kept, want) {
		t.Errorf("Rows = %q, want %q", kept, want)
	}
	if len(p.Targets) != 1 || p.Targets[0].Reason != plan.Updated {
		t.Errorf("Targets = %+v, want edit.txt updated", p.Targets)
	}
}

func TestApplyRedo(t *testing.T) {
	targets := []plan.Target{{File: file(`a\1.txt`, 1, false)}, {File: file(`a\2.txt`, 1, false)}, {File: file(`a\3.txt`, 1, false)}}
	rows := []ingestlist.Row{plan.FreshRow(targets[0].File), plan.FreshRow(targets[1].File), plan.FreshRow(targets[2].File)}
	got, in := plan.ApplyRedo(targets, rows, []journal.Job{{RelPath: `A\1.TXT`, Count: 1}, {RelPath: `a\2.txt`, Count: 2}, {RelPath: `a\gone.txt`, Count: 1}}, t0)
	var order []string
	for _, t := range got {
		order = append(order, t.File.RelPath)
	}
	if !reflect.DeepEqual(order, []string{`a\3.txt`, `a\1.txt`}) || got[1].Count != 1 {
		t.Fatalf("order = %q (counts %+v)", order, got)
	}
	if len(in.Failed) != 1 || rows[1].State != ingestlist.Failed || rows[1].Error != journal.MsgInterrupted(2) {
		t.Fatalf("failed = %+v, row = %+v", in.Failed, rows[1])
	}
}
