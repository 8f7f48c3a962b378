package indexing

import (
	"errors"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

func TestEndView(t *testing.T) {
	tests := []struct {
		name string
		sum  *indexer.Summary
		err  error
		want EndView
	}{
		{"done", &indexer.Summary{Succeeded: 12}, nil, EndView{Level: "ok", Text: "インデックス作成が完了しました（成功 12 件 / 失敗 0 件）"}},
		{"failures", &indexer.Summary{Succeeded: 12, Failed: 2}, nil, EndView{Level: "fail", Text: "インデックス作成が完了しました（成功 12 件 / 失敗 2 件）", Hint: msgEndFailHint}},
		{"postponed", &indexer.Summary{Succeeded: 12, Failed: 1, Postponed: 3}, nil, EndView{Level: "fail", Text: "インデックス作成が完了しました（成功 12 件 / 失敗 1 件 / 残り 3 件）", Hint: msgEndFailHint}},
		{"postponed only", &indexer.Summary{Postponed: 3}, nil, EndView{Level: "warn", Text: "インデックス作成が完了しました（取り込まずに残したファイル 3 件）", Hint: msgEndFailHint}},
		{"nothing", &indexer.Summary{NothingToDo: true}, nil, EndView{Level: "ok", Text: "取り込みが必要なファイルはありませんでした"}},
		{"declined", &indexer.Summary{Stopped: true, Cancelled: true}, nil, EndView{Level: "warn", Text: "インデックス作成を取りやめました"}},
		{"stopped", &indexer.Summary{Stopped: true, Succeeded: 4, Failed: 1, Remaining: 7}, nil, EndView{Level: "warn", Text: "インデックス作成を中止しました（成功 4 件 / 失敗 1 件 / 残り 7 件）", Hint: "次回は続きから再開できます。"}},
		{"no roots", nil, &indexer.FatalError{Msg: indexer.MsgNoRoots}, EndView{Level: "error", Text: "インデックスを作成できませんでした", Hint: indexer.MsgNoRoots}},
		{"lock", nil, &workspace.LockError{}, EndView{Level: "error", Text: workspace.MsgLocked}},
		{"other", nil, errors.New("disk full"), EndView{Level: "error", Text: "インデックスを作成できませんでした", Hint: "詳しくはログを確認してください。"}},
	}
	for _, tt := range tests {
		if got := endView(tt.sum, tt.err); *got != tt.want {
			t.Errorf("%s: endView = %+v, want %+v", tt.name, *got, tt.want)
		}
	}
}

func TestFillProgress(t *testing.T) {
	t0 := time.Date(2024, 4, 1, 10, 0, 0, 0, time.Local)
	tests := []struct {
		name                  string
		cur                   runState
		now                   time.Time
		banner, current, left string
		percent               float64
	}{
		{"crawl", runState{progress: indexer.Progress{Phase: indexer.PhaseCrawl}}, t0, "取り込むファイルを調べています…", "", "", -1},
		{"confirm", runState{progress: indexer.Progress{Phase: indexer.PhaseCrawl}, confirm: &pendingConfirm{}}, t0, "取り込む内容を確認してください", "", "", -1},
		{"first file", runState{progress: indexer.Progress{Phase: indexer.PhaseIngest, Total: 31, Remaining: 31, Current: `営業\a.xlsx`}}, t0,
			"31 件のファイルを取り込みます", "取り込み中のファイル：営業\\a.xlsx", "", 0},
		{"counting", runState{progress: indexer.Progress{Phase: indexer.PhaseIngest, Total: 31, Done: 14, Failed: 1, Remaining: 17, Current: `営業\b.docx`},
			rate: rateOf(t0, 1, t0.Add(13*time.Second), 14)}, t0.Add(13 * time.Second),
			"取り込んでいます（14 / 31 件・失敗 1 件）", "取り込み中のファイル：営業\\b.docx", "残り 1 分未満", 100 * 14.0 / 31},
		{"minutes", runState{progress: indexer.Progress{Phase: indexer.PhaseIngest, Total: 1000, Done: 100, Remaining: 900},
			rate: rateOf(t0, 1, t0.Add(100*time.Second), 100)}, t0.Add(100 * time.Second),
			"取り込んでいます（100 / 1000 件）", "", "残り約 15 分", 10},
		{"finish", runState{progress: indexer.Progress{Phase: indexer.PhaseFinish, Total: 10, Done: 10}}, t0, "インデックス作成を終えています…", "", "", 100},
		{"stopping", runState{progress: indexer.Progress{Phase: indexer.PhaseIngest, Total: 10, Done: 3, Remaining: 7}, stopping: true}, t0,
			"中止しています…（取り込み中のファイルが終わるまでお待ちください）", "", "", 30},
	}
	for _, tt := range tests {
		var v View
		v.Percent = -1
		fillProgress(&v, &tt.cur, tt.now)
		if v.Banner != tt.banner || v.Current != tt.current || v.TimeLeft != tt.left || v.Percent != tt.percent {
			t.Errorf("%s: banner %q current %q left %q percent %v", tt.name, v.Banner, v.Current, v.TimeLeft, v.Percent)
		}
	}
}

// rateOf is a rate that saw first files finished at t0 and done at t1.
func rateOf(t0 time.Time, first int, t1 time.Time, done int) indexer.Rate {
	var r indexer.Rate
	r.Observe(t0, first)
	r.Observe(t1, done)
	return r
}

// TestIndexShareOfRun (issue 32): the confirmed plan gives each index its
// share (failed files too when they are retried), files that end count
// against their index, and a fatal end banner goes with a folder edit.
func TestIndexShareOfRun(t *testing.T) {
	rn := New(nil, indexer.Launch{}, nil)
	cur := &runState{}
	rn.planned(cur, []indexer.PlanRow{{Index: "営業", Targets: 3, Failed: 2}, {Index: "総務"}}, indexer.Answer{Proceed: true, RetryFailed: true})
	for _, f := range []string{`営業\a.txt`, `営業\b.txt`, `総務\x.txt`} {
		rn.observe(cur, indexer.Event{File: f, Outcome: indexer.OutcomeDone})
	}
	var v View
	fillProgress(&v, cur, time.Now())
	if len(v.Indexes) != 2 || v.Indexes[0] != (IndexRun{Name: "営業", Total: 5, Done: 2}) || v.Indexes[1] != (IndexRun{Name: "総務"}) {
		t.Fatalf("indexes = %+v", v.Indexes)
	}
	// A fatal end banner goes with the next folder edit; another stays.
	rn.end = &EndView{Level: "error"}
	rn.ClearFatal()
	if rn.end != nil {
		t.Error("fatal end kept")
	}
	rn.end = &EndView{Level: "fail"}
	rn.ClearFatal()
	if rn.end == nil {
		t.Error("failure end dropped")
	}
}
