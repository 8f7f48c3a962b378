package main

import (
	"flag"
	"fmt"
	"os"
	"time"

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
		run.Observe = func(ev indexer.Event) {
			// The watcher's own lines are printed by Logf and logged
			// again at the top of the next run's log.
			if ev.Line != "" && ev.Level != indexer.Info && !printed[ev.Line] {
				fmt.Fprintln(e.stdout, ev.Line)
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
				fmt.Fprintln(e.stdout, line)
			},
			Observe: watchLine(e),
		})
		return err
	}
}

// watchLine prints what the watcher picked up, once per change.
func watchLine(e *env) func(watch.Status) {
	var last time.Time
	var runs int
	return func(st watch.Status) {
		if st.Runs != runs && !st.LastChangeAt.IsZero() && st.LastChangeAt != last {
			fmt.Fprintf(e.stdout, msgWatchPicked+"\n", st.LastChangeAt.Format("15:04:05"), st.LastChange)
			last = st.LastChangeAt
		}
		runs = st.Runs
	}
}
