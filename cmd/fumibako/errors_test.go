package main

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestExplain: the one mapping from a command's error to its exit code and
// lines; English causes only with --verbose.
func TestExplain(t *testing.T) {
	cause := errors.New("write /ws/x: no space left on device")
	tests := []struct {
		name    string
		err     error
		verbose bool
		code    int
		lines   []string
	}{
		{"nil", nil, false, 0, nil},
		{"no hits", errNoHits, false, 1, nil},
		{"stopped", errStopped, false, 2, nil},
		{"usage", usagef("search", "「--x」というオプションはありません。"), false, 2, []string{"＜エラー＞ 「--x」というオプションはありません。", "（「fumibako search --help」で使い方を表示します）"}},
		{"usage at the top", usagef("", "「x」というコマンドはありません。"), false, 2, []string{"＜エラー＞ 「x」というコマンドはありません。", "（「fumibako help」でコマンドの一覧を表示します）"}},
		{"query", fmt.Errorf("wrapped: %w", &search.QueryError{Msg: "検索するワードを入力してください。"}), false, 2, []string{"＜エラー＞ 検索するワードを入力してください。", "（「fumibako search --help」で使い方を表示します）"}},
		{"fatal", fatalf("取り込み対象のインデックスがありません。"), false, 1, []string{"＜エラー＞ 取り込み対象のインデックスがありません。"}},
		{"fatal verbose", &fatalError{msg: "待ち受けられませんでした。", cause: cause}, true, 1, []string{"＜エラー＞ 待ち受けられませんでした。", "詳細（英語）: " + cause.Error()}},
		{"lock", &workspace.LockError{}, false, 1, []string{"＜エラー＞ " + workspace.MsgLocked}},
		{"settings busy", fmt.Errorf("edit: %w", &workspace.SettingsBusyError{Cause: cause}), false, 1, []string{"＜エラー＞ " + workspace.MsgSettingsBusy}},
		{"indexer fatal", &indexer.FatalError{Msg: "中止しました"}, false, 1, []string{"＜エラー＞ 中止しました"}},
		{"internal", cause, false, 1, []string{"＜エラー＞ " + msgInternal, msgInternalHint}},
		{"internal verbose", cause, true, 1, []string{"＜エラー＞ " + msgInternal, "詳細（英語）: " + cause.Error()}},
	}
	for _, tc := range tests {
		e := &env{verbose: tc.verbose}
		code, lines := e.explain(tc.err)
		if code != tc.code || !reflect.DeepEqual(lines, tc.lines) {
			t.Errorf("%s: explain = %d %q, want %d %q", tc.name, code, lines, tc.code, tc.lines)
		}
	}
}
