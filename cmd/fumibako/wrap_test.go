package main

import (
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
)

// TestWrapLine: the lines issue 32 saw wrap by the terminal are broken by
// the program at word boundaries, East Asian width aware, none wider than
// the width, nothing lost.
func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cols int
		want []string // nil: only check widths and text
	}{
		{"fits", "インデックス作成が完了しました。", 80, []string{"インデックス作成が完了しました。"}},
		{"at a space", "aaaa bbbb cccc dddd", 10, []string{"aaaa bbbb", "  cccc", "  dddd"}},
		{"Japanese, not before 。", "あいうえおかきくけ。こさしすせ", 18, []string{"あいうえおかきく", "  け。こさしすせ"}},
		{"indented", "  「営業」対象ファイル 150 件（取り込み済み 0 件 / 新規 150 件 / 更新あり 0 件 / 前回未完了 0 件 / 前回失敗 0 件）", 50, nil},
		{"long path", "各ファイルの状態・取り込み日時は取り込み一覧 /tmp/TestIndexOnTerminal123456789/001/ws/work/store/ingest_status.tsv で確認できます（fumibako status・fumibako failures でも表示します）。", 50, nil},
		{"narrow", "150 件のファイルを取り込みます（2 個のプロセスで並べて取り込みます）。", 30, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapLine(tc.in, tc.cols)
			if tc.want != nil && strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("wrapLine(%q, %d) = %q, want %q", tc.in, tc.cols, got, tc.want)
			}
			joined := ""
			for i, l := range got {
				if w := displayWidth(l); w > tc.cols {
					t.Errorf("piece %d %q is %d columns, over %d", i, l, w, tc.cols)
				}
				if strings.HasPrefix(strings.TrimLeft(l, " "), "。") || strings.HasSuffix(l, "（") {
					t.Errorf("piece %d %q breaks at a closing or opening mark", i, l)
				}
				joined += strings.TrimLeft(l, " ")
			}
			if strip := func(s string) string { return strings.ReplaceAll(s, " ", "") }; strip(joined) != strip(tc.in) {
				t.Errorf("wrapLine(%q) lost text: %q", tc.in, got)
			}
		})
	}
}

// TestIssue32BarAfterAnnouncement: the status line is first drawn after
// the ingest phase's announcement, never drawn, erased, then followed by it.
func TestIssue32BarAfterAnnouncement(t *testing.T) {
	var out strings.Builder
	clock := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	u := &progressUI{w: &out, mode: modeTerminal, width: func() int { return 80 }, now: func() time.Time { return clock }}
	p := indexer.Progress{Phase: indexer.PhaseIngest, Total: 10, Remaining: 10}
	u.observe(indexer.Event{Progress: p})
	u.observe(indexer.Event{Progress: p, Line: "10 件のファイルを取り込みます。"})
	clock = clock.Add(time.Second)
	p.Done, p.Remaining = 1, 9
	u.observe(indexer.Event{Progress: p})
	u.done()
	s := out.String()
	bar, ann := strings.Index(s, "\r["), strings.Index(s, "取り込みます。")
	if ann < 0 || bar < 0 || bar < ann {
		t.Errorf("bar at %d, announcement at %d: %q", bar, ann, s)
	}
}
