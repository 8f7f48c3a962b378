package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// `fumibako settings list|get|set`: the keys of workspace.SettingKeys,
// the same the web UI's 設定 screen shows (issue 32).

func init() {
	register(&command{name: "settings", args: "サブコマンド [引数]", summary: "設定を一覧・表示・変更する（Web 画面の［設定］と同じ項目）", order: 60,
		about: "検索のオプション、同時に取り込むプロセスの数、1 ファイルの制限時間、ファイルの開き方、自動で更新、OCR の設定を扱います。\nフォルダごとの設定（取り込む、画像も OCR）は fumibako folder で変えます。"})
	register(&command{name: "settings list", summary: "設定の一覧と今の値を表示する", order: 1,
		examples: []string{"fumibako settings list", "fumibako settings list --json"},
		setup:    setupSettingsList})
	register(&command{name: "settings get", args: "設定名", summary: "設定の今の値を表示する", order: 2,
		examples: []string{"fumibako settings get workers"},
		minArgs:  1, maxArgs: 1, setup: setupSettingsGet})
	register(&command{name: "settings set", args: "設定名 値", summary: "設定を変える", order: 3,
		about:    "on/off の設定には on か off を、種類の一覧はコンマで区切って指定します。空の値（\"\"）は既定に戻します。",
		examples: []string{"fumibako settings set workers 4", "fumibako settings set search.kinds excel,word", "fumibako settings set openMode readOnly"},
		minArgs:  2, maxArgs: 2, setup: setupSettingsSet})
}

const (
	msgSettingSet   = "設定「%s」を「%s」にしました。"
	msgSettingReset = "設定「%s」を既定の「%s」に戻しました。"
	// msgSettingResetEmpty: a default that is empty (every kind, Tesseract looked up).
	msgSettingResetEmpty = "設定「%s」を既定に戻しました。"
)

// settingJSON is one line of `settings list --json`.
type settingJSON struct {
	Key      string   `json:"key"`
	Type     string   `json:"type"`
	Value    any      `json:"value"`
	Label    string   `json:"label"`
	Help     string   `json:"help"`
	Choices  []string `json:"choices,omitempty"`
	ReadOnly bool     `json:"readOnly,omitempty"`
}

func setupSettingsList(fs *flag.FlagSet) func(*env, []string) error {
	asJSON := fs.Bool("json", false, "1 行に 1 つの JSON で出力する")
	return func(e *env, args []string) error {
		ws, s, err := openSettings(e)
		if err != nil {
			return err
		}
		if *asJSON {
			out := newJSONLines(e.stdout)
			for _, k := range workspace.SettingKeys() {
				out.write(settingJSON{Key: k.Key, Type: string(k.Type), Value: k.Value(ws, s), Label: k.Label, Help: k.Help, Choices: k.Choices, ReadOnly: k.ReadOnly})
			}
			return out.err
		}
		t := table{head: []string{"設定名", "値", "説明"}}
		for _, k := range workspace.SettingKeys() {
			t.add(k.Key, k.Text(k.Value(ws, s)), k.Label)
		}
		return t.write(e.stdout)
	}
}

// settingKey finds a key or refuses it as a usage error naming the
// nearest key.
func settingKey(cmd, key string) (workspace.SettingKey, error) {
	k, ok := workspace.LookupSetting(key)
	if ok {
		return k, nil
	}
	msg := workspace.UnknownSettingError(key).Error()
	var names []string
	for _, c := range workspace.SettingKeys() {
		names = append(names, c.Key)
	}
	if best, ok := textfold.Nearest(key, names); ok {
		msg += fmt.Sprintf(msgDidYouMean, best)
	} else if best, ok := textfold.Nearest("search."+key, names); ok {
		msg += fmt.Sprintf(msgDidYouMean, best)
	}
	return workspace.SettingKey{}, usagef(cmd, "%s", msg)
}

func setupSettingsGet(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		k, err := settingKey("settings get", args[0])
		if err != nil {
			return err
		}
		ws, s, err := openSettings(e)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, k.Text(k.Value(ws, s)))
		return nil
	}
}

func setupSettingsSet(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		k, err := settingKey("settings set", args[0])
		if err != nil {
			return err
		}
		var v any
		reset := strings.TrimSpace(args[1]) == "" && !k.ReadOnly
		if reset {
			v = k.Value(nil, &workspace.Settings{}) // the default
		} else if v, err = k.ParseText(args[1]); err != nil {
			var se *workspace.SettingError
			if errors.As(err, &se) {
				return usagef("settings set", "%s", se.Msg)
			}
			return err
		}
		err = settingsEdit(e, nil, func(_ *workspace.Workspace, s *workspace.Settings) error { return k.Set(s, v) })
		if err != nil {
			return err
		}
		if reset && k.Text(v) == "" {
			fmt.Fprintf(e.stdout, msgSettingResetEmpty+"\n", k.Key)
		} else if reset {
			fmt.Fprintf(e.stdout, msgSettingReset+"\n", k.Key, k.Text(v))
		} else {
			fmt.Fprintf(e.stdout, msgSettingSet+"\n", k.Key, k.Text(v))
		}
		return nil
	}
}
