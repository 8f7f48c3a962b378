package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
)

func TestShortenPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cols int
		want string
	}{
		{`営業\a.xlsx`, 40, `営業\a.xlsx`},
		{`営業\2024年度\見積書\第1四半期\見積書_山田商事.xlsx`, 40, `営業\…\第1四半期\見積書_山田商事.xlsx`},
		{`営業\2024年度\見積書\第1四半期\見積書_山田商事.xlsx`, 30, `営業\…\見積書_山田商事.xlsx`},
		{`営業\2024年度\見積書\第1四半期\見積書_山田商事.xlsx`, 26, `…\見積書_山田商事.xlsx`},
		{`営業\2024年度\とても長い名前のファイル_最終版_確定.xlsx`, 20, `…ル_最終版_確定.xlsx`},
		{`sales\2024\q1\report.xlsx`, 18, `…\q1\report.xlsx`},
		{`sales/2024/q1/report.xlsx`, 20, `sales/…/report.xlsx`},
	} {
		got := shortenPath(tc.in, tc.cols)
		if got != tc.want || displayWidth(got) > tc.cols {
			t.Errorf("shortenPath(%q, %d) = %q (%d columns), want %q", tc.in, tc.cols, got, displayWidth(got), tc.want)
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{"abc": 3, "営業": 4, "ｱｲｳ": 3, "ＡＢ": 4, "が": 2, "か\u3099": 2, "…": 1, "1/2 件": 6} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestStatusLine: the line fits the terminal at every width, keeps the
// file name whole while there is room, and shows rate and time left once
// known.
func TestStatusLine(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	var rate indexer.Rate
	rate.Observe(t0, 1)
	rate.Observe(t0.Add(10*time.Second), 201)
	p := indexer.Progress{Phase: indexer.PhaseIngest, Total: 760, Done: 735, Failed: 3, Remaining: 25,
		Current: `営業\2024年度\見積書\第1四半期\見積書_山田商事.xlsx`}
	for _, tc := range []struct {
		cols int
		want string
	}{
		{119, "[###################.] 735/760 件 失敗 3 20.0 件/秒 残り 約 5 秒  営業\\2024年度\\見積書\\第1四半期\\見積書_山田商事.xlsx"},
		{100, "[###################.] 735/760 件 失敗 3 20.0 件/秒 残り 約 5 秒  営業\\…\\見積書_山田商事.xlsx"},
		{79, "[###################.] 735/760 件 失敗 3 20.0 件/秒 残り 約 5 秒  …田商事.xlsx"},
		{60, "[###################.] 735/760 件 失敗 3 残り 約 5 秒"},
		{30, "[###################.] 735/76…"},
	} {
		got := statusLine(p, &rate, tc.cols)
		if got != tc.want || displayWidth(got) > tc.cols {
			t.Errorf("statusLine at %d columns = %q (%d), want %q", tc.cols, got, displayWidth(got), tc.want)
		}
	}
	// A file read by OCR shows its pages after the failures (issue 29).
	p.OCRDone, p.OCRTotal = 12, 300
	for _, tc := range []struct {
		cols int
		want string
	}{
		{90, "[###################.] 735/760 件 失敗 3 OCR 12/300 ページ 20.0 件/秒 残り 約 5 秒"},
		{70, "[###################.] 735/760 件 失敗 3 OCR 12/300 ページ 20.0 件/秒"},
		{60, "[###################.] 735/760 件 失敗 3 OCR 12/300 ページ"},
	} {
		got := statusLine(p, &rate, tc.cols)
		if got != tc.want || displayWidth(got) > tc.cols {
			t.Errorf("statusLine with OCR at %d columns = %q (%d), want %q", tc.cols, got, displayWidth(got), tc.want)
		}
	}
	// A file waiting for the PDF engine's one-time compile shows its note
	// in the same place (issue 33).
	p.OCRDone, p.OCRTotal, p.Preparing = 0, 0, "PDF を読む準備をしています（初回だけ）"
	for _, tc := range []struct {
		cols int
		want string
	}{
		{100, "[###################.] 735/760 件 失敗 3 PDF を読む準備をしています（初回だけ） 残り 約 5 秒"},
		{80, "[###################.] 735/760 件 失敗 3 PDF を読む準備をしています（初回だけ）"},
	} {
		got := statusLine(p, &rate, tc.cols)
		if got != tc.want || displayWidth(got) > tc.cols {
			t.Errorf("statusLine while preparing at %d columns = %q (%d), want %q", tc.cols, got, displayWidth(got), tc.want)
		}
	}
	for d, want := range map[time.Duration]string{3 * time.Second: "約 5 秒", 41 * time.Second: "約 45 秒", 89 * time.Second: "約 1 分", 150 * time.Second: "約 3 分"} {
		if got := leftText(d); got != want {
			t.Errorf("leftText(%v) = %q, want %q", d, got, want)
		}
	}
}

// fakeRun feeds a progressUI the events of a run of n files, the ones in
// fail failing, as the indexer sends them.
func fakeRun(u *progressUI, n int, fail map[int]bool, clock *time.Time) {
	send := func(ev indexer.Event) {
		*clock = clock.Add(37 * time.Millisecond)
		u.observe(ev)
	}
	p := indexer.Progress{Phase: indexer.PhaseCrawl}
	send(indexer.Event{Line: "ワークスペース: /ws", Progress: p})
	send(indexer.Event{Line: "クロールしています...", Progress: p})
	p = indexer.Progress{Phase: indexer.PhaseIngest, Total: n, Remaining: n}
	send(indexer.Event{Line: fmt.Sprintf("%d 件のファイルを取り込みます。", n), Progress: p})
	for i := 1; i <= n; i++ {
		rel := fmt.Sprintf(`営業\2024年度\見積書\とても長いフォルダの名前\見積書_%03d_山田商事御中.xlsx`, i)
		p.Current = rel
		send(indexer.Event{Progress: p})
		p.Done++
		p.Remaining--
		level, outcome, reason := indexer.Info, indexer.OutcomeDone, ""
		if fail[i] {
			p.Failed++
			level, outcome, reason = indexer.Error, indexer.OutcomeFailed, "壊れています"
		}
		send(indexer.Event{Line: fmt.Sprintf("[%d/%d] %s", p.Done, n, rel), Progress: p, File: rel})
		if fail[i] {
			send(indexer.Event{Line: "    取り込みに失敗しました: 壊れています", Level: level, Progress: p, File: rel})
		} else {
			send(indexer.Event{Line: "    取り込みました（1 か所）。", Level: level, Progress: p, File: rel})
		}
		send(indexer.Event{Progress: p, File: rel, Outcome: outcome, Reason: reason})
		if i == n/2 {
			send(indexer.Event{Line: "    インデックスをまとめられませんでした", Level: indexer.Warn, Progress: p})
		}
	}
	p.Phase = indexer.PhaseFinish
	send(indexer.Event{Progress: p})
	send(indexer.Event{Line: "インデックス作成が完了しました。", Level: indexer.Good, Progress: p})
	send(indexer.Event{Line: fatalMark, Level: indexer.Error, Progress: p})
	send(indexer.Event{Line: "致命的なエラーの本文", Level: indexer.Error, Progress: p})
}

var statusRe = regexp.MustCompile(`^\[[#.]{20}\] \d+/\d+ 件`)

// TestProgressOnTerminal renders a run on a fake 120-column terminal and
// checks the screen at the end: one status line (the final one, under
// the run's lines, above the summary), every failure with its head, no
// line of a file that went well, no copy of the fatal error, and the last
// file's name whole.
func TestProgressOnTerminal(t *testing.T) {
	for _, cols := range []int{120, 80, 50} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			scr := newScreen(cols)
			clock := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
			u := &progressUI{w: scr, mode: modeTerminal, width: func() int { return cols }, now: func() time.Time { return clock }}
			fakeRun(u, 200, map[int]bool{7: true, 99: true, 200: true}, &clock)
			u.done()
			lines := scr.text()
			var bars []string
			for _, l := range lines {
				if statusRe.MatchString(l) {
					bars = append(bars, l)
					if displayWidth(l) >= cols {
						t.Errorf("status line fills the terminal (wraps): %q", l)
					}
				}
			}
			if len(bars) != 1 || !strings.HasPrefix(bars[0], "[####################] 200/200 件 失敗 3") {
				t.Fatalf("status lines %q\nscreen:\n%s", bars, strings.Join(lines, "\n"))
			}
			if cols >= 120 && !strings.HasSuffix(bars[0], `見積書_200_山田商事御中.xlsx`) {
				t.Errorf("last file's name cut: %q", bars[0])
			}
			want := []string{
				"ワークスペース: /ws", "クロールしています...", "200 件のファイルを取り込みます。",
				`[7/200] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_007_山田商事御中.xlsx`, "    取り込みに失敗しました: 壊れています",
				`[99/200] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_099_山田商事御中.xlsx`, "    取り込みに失敗しました: 壊れています",
				"    インデックスをまとめられませんでした",
				`[200/200] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_200_山田商事御中.xlsx`, "    取り込みに失敗しました: 壊れています",
				bars[0],
				"インデックス作成が完了しました。",
			}
			var got []string
			for _, l := range lines {
				if len(l) > 0 {
					got = append(got, l)
				}
			}
			if cols < 120 {
				// Long heads are wrapped by the program on narrow
				// terminals (issue 32): no line is wider than the
				// terminal, and nothing is lost.
				noSpace := func(s string) string { return strings.ReplaceAll(s, " ", "") }
				joined := noSpace(strings.Join(got, ""))
				for _, w := range want {
					if !strings.Contains(joined, noSpace(w)) {
						t.Errorf("missing %q", w)
					}
				}
				for _, l := range got {
					if displayWidth(l) >= cols {
						t.Errorf("line of %d columns on a terminal of %d: %q", displayWidth(l), cols, l)
					}
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestProgressPlain: not a terminal, every line in order, no status line,
// no escape sequence.
// writeLog keeps each write apart.
type writeLog struct {
	strings.Builder
	writes []string
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return w.Builder.Write(p)
}

func TestProgressPlain(t *testing.T) {
	var b writeLog
	clock := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	u := &progressUI{w: &b, mode: modePlain, width: func() int { return 80 }, now: func() time.Time { return clock }}
	fakeRun(u, 5, map[int]bool{2: true}, &clock)
	u.done()
	want := `ワークスペース: /ws
クロールしています...
5 件のファイルを取り込みます。
[1/5] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_001_山田商事御中.xlsx
    取り込みました（1 か所）。
[2/5] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_002_山田商事御中.xlsx
    取り込みに失敗しました: 壊れています
    インデックスをまとめられませんでした
[3/5] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_003_山田商事御中.xlsx
    取り込みました（1 か所）。
[4/5] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_004_山田商事御中.xlsx
    取り込みました（1 か所）。
[5/5] 営業\2024年度\見積書\とても長いフォルダの名前\見積書_005_山田商事御中.xlsx
    取り込みました（1 か所）。
インデックス作成が完了しました。
`
	if b.String() != want {
		t.Errorf("plain output:\n%s\nwant:\n%s", b.String(), want)
	}
	// A file's lines go out in one write (issue 35), the run's lines as
	// they come.
	for _, w := range b.writes {
		if strings.HasPrefix(w, "[") && (strings.Count(w, "\n") < 2 || strings.Count(w, "[") != 1) {
			t.Errorf("write %q: not one file's lines", w)
		}
	}
	if len(b.writes) != 5+5 {
		t.Errorf("%d writes, want 10 (5 lines of the run, 5 files): %q", len(b.writes), b.writes)
	}
}
