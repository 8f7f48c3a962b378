package main

import (
	"flag"
	"fmt"

	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "folder set", args: "インデックス名 --hidden-sheets on|off", summary: "インデックスの設定を変える（Excel の非表示のシートを取り込むかどうか）", order: 9,
		about: `--hidden-sheets on にすると、そのフォルダの Excel ブック（.xlsx .xlsm .xlsb .xls .ods）の
非表示のシートも取り込み、検索結果では [シート]原価（非表示）!B3 のように示します。
既定は off です（元のツールと同じく、作った人が見せていない計算用・作業用のシートは取り込みません）。
切り替えると、次のインデックス作成でそのフォルダの Excel ブックを読み直します。`,
		examples: []string{"fumibako folder set 営業 --hidden-sheets on", "fumibako folder set 営業 --hidden-sheets off"},
		minArgs:  1, maxArgs: 1, setup: setupFolderSet})
}

func setupFolderSet(fs *flag.FlagSet) func(*env, []string) error {
	hidden := fs.String("hidden-sheets", "", "Excel の非表示のシートを取り込むか: on・off")
	return func(e *env, args []string) error {
		var on bool
		switch *hidden {
		case "on":
			on = true
		case "off":
		case "":
			return usagef("folder set", msgFolderSetNothing)
		default:
			return usagef("folder set", msgFlagBadValue, "--hidden-sheets", *hidden, msgOnOff)
		}
		err := settingsEdit(e, nil, func(_ *workspace.Workspace, s *workspace.Settings) error {
			return s.SetHiddenSheets(args[0], on)
		})
		if err != nil {
			return err
		}
		if on {
			fmt.Fprintf(e.stdout, msgHiddenSheetsOn+"\n", args[0])
		} else {
			fmt.Fprintf(e.stdout, msgHiddenSheetsOff+"\n", args[0])
		}
		return nil
	}
}
