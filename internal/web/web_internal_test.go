package web

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
		var v RunView
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

func TestDateTime(t *testing.T) {
	for in, want := range map[string]string{
		"2024/04/02 09:05:00": "2024/04/02 09:05",
		"2024/04/01 09:05:00": "2024/04/01 09:05",
		"":                    "",
		"garbage":             "garbage",
	} {
		if got := dateTime(in); got != want {
			t.Errorf("dateTime(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHostAllowedOnLAN: a server bound to every address accepts IP
// literals and localhost on its port, never a name (DNS rebinding).
func TestHostAllowedOnLAN(t *testing.T) {
	s := &Server{addr: "[::]:8080"}
	for host, want := range map[string]bool{
		"192.168.1.10:8080": true,
		"127.0.0.1:8080":    true,
		"localhost:8080":    true,
		"[fe80::1]:8080":    true,
		"fileserver:8080":   false,
		"evil.example:8080": false,
		"192.168.1.10:8081": false,
		"192.168.1.10":      false,
	} {
		if got := s.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	if (&Server{}).hostAllowed("127.0.0.1:80") {
		t.Errorf("a server without an address accepts requests")
	}
}

func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{
		` "C:\共有\営業" `: `C:\共有\営業`,
		"/srv/営業":      "/srv/営業",
		`"`:            `"`,
	} {
		if got := cleanPath(in); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIndexShareOfRun (issue 32): the confirmed plan gives each index its
// share (failed files too when they are retried), files that end count
// against their index, and the status of a covered index with no share
// is 取り込み不要.
func TestIndexShareOfRun(t *testing.T) {
	rn := newRunner(&Server{})
	cur := &runState{}
	rn.planned(cur, []indexer.PlanRow{{Index: "営業", Targets: 3, Failed: 2}, {Index: "総務"}}, indexer.Answer{Proceed: true, RetryFailed: true})
	for _, f := range []string{`営業\a.txt`, `営業\b.txt`, `総務\x.txt`} {
		rn.observe(cur, indexer.Event{File: f, Outcome: indexer.OutcomeDone})
	}
	var v RunView
	fillProgress(&v, cur, time.Now())
	if len(v.Indexes) != 2 || v.Indexes[0] != (IndexRun{Name: "営業", Total: 5, Done: 2}) || v.Indexes[1] != (IndexRun{Name: "総務"}) {
		t.Fatalf("indexes = %+v", v.Indexes)
	}
	for name, want := range map[string]string{"営業": "取り込み中 2/5", "総務": "取り込み不要"} {
		if got := runStatus(v, name); got != want {
			t.Errorf("runStatus(%s) = %q, want %q", name, got, want)
		}
	}
	if got := runStatus(RunView{Running: true}, "営業"); got != "取り込み中" {
		t.Errorf("runStatus while crawling = %q", got)
	}
	// A fatal end banner goes with the next folder edit; another stays.
	rn.end = &EndView{Level: "error"}
	rn.clearFatal()
	if rn.end != nil {
		t.Error("fatal end kept")
	}
	rn.end = &EndView{Level: "fail"}
	rn.clearFatal()
	if rn.end == nil {
		t.Error("failure end dropped")
	}
}
