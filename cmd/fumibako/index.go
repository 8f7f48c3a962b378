package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "index", args: "[オプション]", summary: "インデックスを作成する（取り込み対象のフォルダを調べ、変わったファイルを取り込む）", order: 20,
		about: `取り込み対象のインデックスの元のフォルダを調べ、新しいファイル・更新されたファイルを取り込みます。
端末では下の 1 行に進み具合（件数・失敗・速さ・残り時間・取り込み中のファイル）を表示し、
失敗と注意だけをその上に流します。すべての行は <ワークスペース>/work/indexing_log.txt に残ります。
Ctrl-C で中止します（取り込み中のファイルを少し待ちます。もう一度押すとすぐに止めます）。
中止したところからは、次の fumibako index で続けます。
終了コード: 0 完了（ファイルごとの失敗は fumibako failures で確認）、1 続けられないエラー、2 中止。`,
		examples: []string{"fumibako index", "fumibako index --only 営業 --only 経理2024", "fumibako index --retry-failed", "fumibako index --json > run.jsonl"},
		setup:    setupIndex})
}

func setupIndex(fs *flag.FlagSet) func(*env, []string) error {
	retry := fs.Bool("retry-failed", false, "前回取り込みに失敗し、その後変わっていないファイルも取り込み直す")
	resetList := fs.Bool("reset-list", false, "読み取れない取り込み一覧を別の名前（ingest_status.tsv.broken-…）で残し、最初から取り込み直す")
	var only listFlag
	fs.Var(&only, "only", "この`インデックス名`だけを取り込み、ほかはそのままにする（繰り返し指定できます）")
	workers := fs.Int("workers", 0, "並べて取り込む`プロセス数`（既定: 設定、なければ CPU の数）")
	timeout := fs.Duration("file-timeout", 0, "1 ファイルにかけてよい`時間`。超えたファイルは失敗にして次へ進む（例: 10m、既定: 設定、なければ 10 分）")
	memMB := fs.Int64("worker-memory", 0, "取り込みのプロセス 1 つが使えるメモリの上限 `MiB`（既定: パソコンのメモリの 4 分の 1 を取り込みのプロセスの数で分けた量（512〜2048）、-1 で上限なし）")
	plain := fs.Bool("plain", false, "端末でも進み具合の行を使わず、すべての行をそのまま出力する")
	asJSON := fs.Bool("json", false, "1 行に 1 つの JSON で出来事を出力する（開始・ファイルごとの結果・注意・終了）")
	return func(e *env, args []string) error {
		ws, err := e.workspace()
		if err != nil {
			return err
		}
		s, notice, err := loadSettings(ws)
		if err != nil {
			return err
		}
		// With no root left, a removed root's index is still freed: the
		// run does that, then says there is nothing to crawl (issue 30).
		if err := checkOnly(s, only); err != nil && (len(only) > 0 || !indexer.HasRemovedIndexes(ws, s)) {
			if notice != "" {
				fmt.Fprintln(e.stderr, notice)
			}
			return err
		}
		var notices []string
		if notice != "" {
			notices = append(notices, notice)
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		stop, kill, release := stopSignals()
		defer release()
		mem := *memMB << 20
		if *memMB < 0 {
			mem = -1
		}
		ui := newProgressUI(e.stdout, *plain, *asJSON)
		run := indexer.NewOptions(ws, s, indexer.Launch{Workers: *workers, FileTimeout: *timeout, MemLimit: mem, WorkerExe: exe})
		run.RetryFailed, run.ResetList, run.OnlyNames = *retry, *resetList, only
		run.Stop, run.Kill = stop, kill
		run.Notices, run.Observe = notices, ui.observe
		sum, err := indexer.Run(run)
		ui.done()
		if err == nil && sum != nil && (sum.Stopped || sum.Cancelled) {
			err = errStopped
		}
		code, lines := e.explain(err)
		ui.end(sum, strings.Join(lines, "\n"), code, ws.IngestList())
		return err
	}
}

// checkOnly refuses --only names that are not registered (exit 2), and a
// run with nothing to ingest because every folder it names is 対象外 or
// none is registered (exit 1), with the commands that fix it: the
// indexer's own texts speak of the web UI's screen.
func checkOnly(s *workspace.Settings, only []string) error {
	if len(s.Roots) == 0 {
		if len(only) > 0 {
			return usagef("index", msgNoIndexes, only[0])
		}
		return fatalf("%s", msgNoRoots)
	}
	var names []string
	for _, r := range s.Roots {
		names = append(names, r.Name)
	}
	for _, n := range only {
		if _, _, ok := s.Root(n); !ok {
			return unknownIndex("index", n, names)
		}
	}
	for _, r := range s.Roots {
		if r.IsEnabled() && (len(only) == 0 || workspace.NameIn(only, r.Name)) {
			return nil
		}
	}
	if len(only) > 0 {
		return fatalf(msgOnlyDisabled, strings.Join(only, "、"), only[0])
	}
	return fatalf("%s", msgNoEnabled)
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
