package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "folder source", args: "インデックス名 フォルダ", summary: "インデックスの元のフォルダ（ファイルを開く場所）を確かめる・変える", order: 8,
		about: `受け取ったインデックスのファイルを開く前に、元のフォルダを確かめて登録します。取り込んだフォルダが移ったときも、
ここで新しい場所を指定すると、取り込み直さずにファイルを開けます（取り込む元のフォルダの登録は変えません）。`,
		examples: []string{`fumibako folder source 営業 "\\server\共有\営業"`},
		minArgs:  2, maxArgs: 2, setup: setupFolderSource})
	register(&command{name: "folder move", args: "インデックス名 フォルダ", summary: "インデックスの元のフォルダの場所を変える（取り込み直しはしません）", order: 4,
		about: `フォルダを移したときや、ネットワークドライブの文字が変わったとき（Z: → Y:、\\server\共有 のパスにするときも）に、
インデックスはそのままで場所だけを変えます。ファイルが変わっていなければ、次のインデックス作成で取り込み直すものはありません。`,
		examples: []string{`fumibako folder move 営業 "Y:\営業"`},
		minArgs:  2, maxArgs: 2, setup: setupFolderMove})
	register(&command{name: "open", args: "インデックス名\\パス [--mode normal|readOnly|new] [--sheet シート --cell セル] [--folder]", summary: "検索で見つかったファイルを開く（読み取り専用・新規のコピー、Excel は該当のセル）", order: 45,
		about: `search の結果の「インデックス名\パス」のファイルを開きます。開き方は --mode か、設定ファイルの openMode で決まります。
normal は通常どおり編集する、readOnly は読み取り専用、new は元のファイルを占有しない新規のコピーです。
Windows では Excel のファイルを --sheet のシートの --cell のセルで開きます。Word と PowerPoint も読み取り専用や
新規のコピーで開けます。スクリプト（.bat .cmd .ps1 .vbs .js .reg .sh）は実行せず、メモ帳で開きます。
受け取ったインデックスのマクロを含められる形式（.xlsm .xlsb .xls .docm .doc .pptm .ppt）は、読み取り専用のコピーを開きます。`,
		examples: []string{`fumibako open "営業\2024\見積.xlsx"`, `fumibako open "営業\2024\見積.xlsx" --mode readOnly --sheet 売上 --cell D5`,
			`fumibako open "営業\2024\見積.xlsx" --folder`},
		minArgs: 1, maxArgs: 1, setup: setupOpen})
}

func setupFolderSource(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		name := args[0]
		path, err := filepath.Abs(args[1])
		if err != nil {
			path = args[1]
		}
		path = filepath.Clean(path)
		err = settingsEdit(e, nil, func(ws *workspace.Workspace, s *workspace.Settings) error {
			if !source.Known(ws.ContentRoot(), s, name) {
				return fatalf(msgSourceNoIndex, name)
			}
			return s.SetSource(name, path)
		})
		if err != nil {
			return err
		}
		if w := workspace.FolderWarning(path); w != "" {
			fmt.Fprintln(e.stderr, w)
		} else if workspace.IsNetworkPath(path) {
			fmt.Fprintln(e.stderr, source.MsgNetworkWarn)
		}
		fmt.Fprintf(e.stdout, source.MsgRepointed+"\n", name, path)
		return nil
	}
}

func setupFolderMove(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		var old, now workspace.Root
		err := settingsEdit(e, nil, func(ws *workspace.Workspace, s *workspace.Settings) error {
			var err error
			if old, err = s.MoveRoot(args[0], args[1], ws.Root); err != nil {
				return err
			}
			now, _, _ = s.Root(args[0])
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgMovedRoot+"\n", now.Name, old.Path, now.Path)
		if w := workspace.FolderWarning(now.Path); w != "" {
			fmt.Fprintf(e.stderr, msgAddedAbsent+"\n", w)
		}
		return nil
	}
}

func setupOpen(fs *flag.FlagSet) func(*env, []string) error {
	folder := fs.Bool("folder", false, "ファイルではなく、ファイルのあるフォルダを開く（Windows ではファイルを選んだ状態のエクスプローラー）")
	mode := fs.String("mode", "", "開き方: normal（通常）、readOnly（読み取り専用）、new（コピーを新規に開く）。省略すると設定の openMode")
	sheet := fs.String("sheet", "", "Excel: 開くシート（search の場所の [シート] の名前）")
	cell := fs.String("cell", "", "Excel: 選ぶセル（例: D5）")
	return func(e *env, args []string) error {
		m, ok := desktop.ParseMode(*mode)
		if !ok {
			return fatalf(msgBadOpenMode, *mode)
		}
		ws, s, err := openSettings(e)
		if err != nil {
			return err
		}
		if *mode == "" {
			m, _ = desktop.ParseMode(s.OpenMode)
		}
		l, err := ingestlist.ReadFile(ws.IngestList())
		if err != nil {
			return err
		}
		if p := source.UnreachableFolder(ws.ContentRoot(), s, args[0], source.OpenWait, new(source.Prober).Reached); p != "" {
			return fatalf(msgUnreachable, p)
		}
		f, err := source.Resolve(ws.ContentRoot(), s, l, args[0])
		if err != nil {
			return err
		}
		d := newOpener(ws.TmpRoot())
		if *folder {
			if err := d.OpenFolder(f.Path); err != nil {
				return openFailed(filepath.Dir(f.Path), err)
			}
			fmt.Fprintf(e.stdout, msgOpenedFile+"\n", filepath.Dir(f.Path))
			return nil
		}
		// A macro-capable file of a received index opens as a read-only
		// copy, or not at all (reference/search.md §9).
		target, err := source.OpenTarget(f, ws.TmpRoot())
		if err != nil {
			return fatalf(msgReadOnlyImpossible, f.Path)
		}
		copied := target != f.Path
		if copied {
			m = desktop.ModeReadOnly
		}
		note, err := d.Open(desktop.Target{Path: target, Mode: m, Place: *sheet, Cell: *cell, Protected: copied})
		if err != nil {
			return openFailed(target, err)
		}
		switch {
		case note != "":
			fmt.Fprintln(e.stdout, note)
		case target != f.Path:
			fmt.Fprintf(e.stdout, msgOpenedReadOnly+"\n", f.Path, target)
		default:
			fmt.Fprintf(e.stdout, msgOpenedFile+"\n", target)
		}
		return nil
	}
}

// openFailed is 元のファイルを開けませんでした with the opener's Japanese
// reason; the English cause goes to the verbose detail.
func openFailed(target string, err error) error {
	why := msgOpenerNotStarted
	var de *desktop.Error
	if errors.As(err, &de) {
		why = de.Msg
	}
	return &fatalError{msg: fmt.Sprintf(msgOpenFailed, target, why), cause: err}
}
