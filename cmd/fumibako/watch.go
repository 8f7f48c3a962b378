package main

import (
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "watch", args: "[オプション]", summary: "フォルダを見張り、変わったファイルをすぐに取り込み続ける", order: 25,
		about: `取り込み対象のインデックスの元のフォルダを見張り、ファイルが作られる・変わる・名前が変わる・消されると、
少し待ってから（保存が終わるのを待って）そのファイルだけを取り込みます。最初に一度すべてのフォルダを調べ、
その後も設定の間隔（既定 24 時間）ですべてを調べ直します。変更の通知が使えないフォルダ（Linux の
ネットワーク上のフォルダ、監視できる数の上限、通知の取りこぼし、見つからないフォルダ）は、理由を表示して
一定の間隔で調べ直します。実行中はインデックス作成のロックを持ちます（fumibako status に表示されます）。
Ctrl-C で終了します（取り込み中のファイルを少し待ちます。もう一度押すとすぐに止めます）。
終了コード: 0 終了、1 続けられないエラー（ほかのインデックス作成が実行中など）。`,
		examples: []string{"fumibako watch", "fumibako watch --debounce 2s"},
		setup:    setupWatch})
}

func setupWatch(fs *flag.FlagSet) func(*env, []string) error {
	debounce := fs.Duration("debounce", 0, "最後の変更から取り込みを始めるまで待つ`時間`（既定: 500ms）")
	poll := fs.Duration("rescan", 0, "変更の通知が使えないフォルダを調べ直す`間隔`（既定: 10m）")
	workers := fs.Int("workers", 0, "並べて取り込む`プロセス数`（既定: 設定、なければ CPU の数）")
	timeout := fs.Duration("file-timeout", 0, "1 ファイルにかけてよい`時間`（既定: 設定、なければ 10 分）")
	return func(e *env, args []string) error {
		ws, err := e.workspace()
		if err != nil {
			return err
		}
		s, notice, err := loadSettings(ws)
		if err != nil {
			return err
		}
		if err := checkOnly(s, nil); err != nil {
			return err
		}
		if notice != "" {
			fmt.Fprintln(e.stderr, notice)
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		stop, kill, release := stopSignals()
		defer release()
		printed := map[string]bool{} // the watcher's lines (one goroutine)
		full := time.Duration(s.WatchFullRescanHours) * time.Hour
		run := indexer.NewOptions(ws, s, indexer.Launch{Workers: *workers, FileTimeout: *timeout, WorkerExe: exe})
		var doing atomic.Value // what the watcher does (its goroutine), read by the run's observer
		doing.Store(watch.DoingStart)
		run.Observe = func(ev indexer.Event) {
			switch {
			case ev.Outcome != "":
				if l := changeLine(ev, doing.Load().(string), time.Now()); l != "" {
					e.printWrapped(l)
				}
			case ev.File != "":
				// A file's own lines: its change line says it.
			case ev.Line != "" && ev.Level != indexer.Info && !printed[ev.Line]:
				e.printWrapped(ev.Line)
			}
		}
		_, err = watch.Watch(watch.Options{
			Index:     run,
			Settings:  func() (*workspace.Settings, error) { s, _, err := loadSettings(ws); return s, err },
			Debounce:  *debounce,
			PollEvery: *poll,
			FullEvery: full,
			Stop:      stop,
			Kill:      kill,
			Logf: func(f string, a ...any) {
				line := fmt.Sprintf(f, a...)
				printed[line] = true
				e.printWrapped(line)
			},
			Observe: func(st watch.Status) { doing.Store(st.Doing) },
		})
		if err == nil {
			e.printWrapped(msgWatchStopped)
		}
		return err
	}
}

// changeLine is the one line `watch` prints for a file a run ended (issue
// 32): what the change did, when, and the file; "" for a file the first
// or periodic full scan read as it should (those runs would list every
// file).
func changeLine(ev indexer.Event, doing string, now time.Time) string {
	at := now.Format("15:04:05")
	switch ev.Outcome {
	case indexer.OutcomeDone:
		if doing == watch.DoingFull || doing == watch.DoingStart {
			return ""
		}
		return fmt.Sprintf(msgWatchPicked, at, ev.File)
	case indexer.OutcomeRemoved, indexer.OutcomeVanished:
		return fmt.Sprintf(msgWatchRemoved, at, ev.File)
	case indexer.OutcomeFailed:
		return fmt.Sprintf(msgWatchFailed, at, ev.File, ev.Reason)
	case indexer.OutcomePostponed:
		return fmt.Sprintf(msgWatchPostponed, at, ev.File, ev.Reason)
	}
	return ""
}

// printWrapped prints a line on stdout, wrapped at word boundaries when
// stdout is a terminal narrower than the line (issue 32).
func (e *env) printWrapped(line string) {
	cols := 0
	if f, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if c, _, err := term.GetSize(int(f.Fd())); err == nil {
			cols = c - 1
		}
	}
	for _, l := range wrapLine(line, cols) {
		fmt.Fprintln(e.stdout, l)
	}
}
