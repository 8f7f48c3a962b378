package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpEverywhere: every command and subcommand of the table answers
// `--help`, `-h`, `-help` and `fumibako help …` with its Japanese help on
// stdout and exit 0 (issue 17).
func TestHelpEverywhere(t *testing.T) {
	f := newFixture(t)
	var names []string
	for name, c := range commands {
		if !c.hidden {
			names = append(names, name)
		}
	}
	if len(names) < 12 {
		t.Fatalf("only %d commands in the table: %v", len(names), names)
	}
	for _, name := range names {
		words := strings.Fields(name)
		for _, args := range [][]string{
			append(append([]string{}, words...), "--help"),
			append(append([]string{}, words...), "-h"),
			append(append([]string{}, words...), "-help"),
			append([]string{"help"}, words...),
		} {
			out, errOut, code := f.run(args...)
			head := "fumibako " + name + " — " + commands[name].summary + "\n"
			if code != 0 || !strings.HasPrefix(out, head) || errOut != "" || !strings.Contains(out, "使い方: fumibako "+name) {
				t.Errorf("fumibako %s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, errOut, out)
			}
		}
	}
	// The top-level help lists every command and the exit codes.
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		out, _, code := f.run(args...)
		if code != 0 || !strings.Contains(out, "終了コード:") {
			t.Errorf("fumibako %v: exit %d\n%s", args, code, out)
		}
		for _, c := range topCommands() {
			if !strings.Contains(out, "\n  "+c.name+" ") {
				t.Errorf("fumibako %v does not list %s", args, c.name)
			}
		}
	}
	// A subcommand's help lists its own flags only.
	out, _, _ := f.run("folder", "list", "--help")
	if strings.Contains(out, "--name") || !strings.Contains(out, "--json") {
		t.Errorf("folder list --help:\n%s", out)
	}
	// No arguments: the help on stderr, exit 2.
	out, errOut, code := f.run()
	if code != 2 || out != "" || !strings.Contains(errOut, "コマンド:") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCommandLineErrors: unknown and mistyped flags, commands and
// subcommands, missing and bad values exit 2 with a message that names
// them; search's -語 exclusions and `--` keep working.
func TestCommandLineErrors(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "見積 --help の説明\n下書きの見積\ndraft の見積\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // wanted in stdout
		stderr string // wanted in stderr
	}{
		{"mistyped flag", []string{"search", "--regx", "見積"}, 2, "", "「--regx」というオプションはありません。「--regex」のことですか？"},
		{"mistyped single-dash flag", []string{"search", "見積", "-regx"}, 2, "", "「regx」を含む行を除くときは「--not regx」と書いてください。"},
		{"search help is not a search", []string{"search", "--help"}, 0, "使い方: fumibako search", ""},
		{"help among words", []string{"search", "見積", "-h"}, 0, "使い方: fumibako search", ""},
		{"-- searches --help", []string{"search", "--", "--help"}, 0, "見積 --help の説明", ""},
		{"Japanese exclusion", []string{"search", "見積", "-下書き"}, 0, "見積 --help の説明", ""},
		{"-help is help", []string{"search", "見積", "-help"}, 0, "使い方: fumibako search", ""},
		{"ASCII exclusion", []string{"search", "見積", "-draft"}, 0, "見積 --help の説明", ""},
		{"--not", []string{"search", "見積", "--not", "説明"}, 0, "下書きの見積", ""},
		{"unknown flag elsewhere", []string{"status", "--jsn"}, 2, "", "「--jsn」というオプションはありません。「--json」のことですか？"},
		{"unknown flag on a subcommand", []string{"folder", "list", "--name", "x"}, 2, "", "「--name」というオプションはありません。"},
		{"unknown command", []string{"serch", "見積"}, 2, "", "「serch」というコマンドはありません。「search」のことですか？"},
		{"unknown subcommand", []string{"folder", "lst"}, 2, "", "＜エラー＞ 「folder」に「lst」というサブコマンドはありません。「list」のことですか？"},
		{"no subcommand", []string{"folder"}, 2, "", "＜エラー＞ 「folder」のあとにサブコマンドを指定してください。"},
		{"missing value", []string{"search", "見積", "--max"}, 2, "", "「--max」のあとに件数を指定してください。"},
		{"bad number", []string{"index", "--workers", "many"}, 2, "", "「--workers」の値「many」は使えません（整数を指定してください）。"},
		{"bad duration", []string{"index", "--file-timeout", "10"}, 2, "", "「--file-timeout」の値「10」は使えません（時間を 10m、90s、1h30m のように指定してください）。"},
		{"bad color", []string{"search", "見積", "--color", "red"}, 2, "", "「--color」の値「red」は使えません"},
		{"too many arguments", []string{"folder", "rename", "a", "b", "c"}, 2, "", "引数が多すぎます（「c」は使いません）。"},
		{"too few arguments", []string{"folder", "add"}, 2, "", "引数が足りません。"},
		{"mistyped subcommand", []string{"folder", "ad", "x"}, 2, "", "「folder」に「ad」というサブコマンドはありません。「add」のことですか？"},
		{"poor flag gets no suggestion", []string{"search", "x", "--foo"}, 2, "", "＜エラー＞ 「--foo」というオプションはありません。\n"},
		{"mistyped kind", []string{"search", "見積", "--kind", "exel"}, 2, "", "＜エラー＞ 種類「exel」はありません（excel・word・powerpoint・pdf・text・image から選んでください）。「excel」のことですか？\n"},
		{"mistyped index", []string{"search", "見積", "--index", "営"}, 2, "", "＜エラー＞ インデックス「営」はありません。「営業」のことですか？\n"},
		{"regex error at the end", []string{"search", "--regex", "(見積"}, 2, "", "正規表現として不正です（1 番目のワード「(見積」の終わり: 閉じかっこ ) が足りません）。"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := f.run(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("fumibako %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, out, errOut)
			}
			if tc.code == 2 && !strings.HasPrefix(errOut, "＜エラー＞ ") && !strings.Contains(errOut, "\n＜エラー＞ ") || tc.code == 2 && !strings.Contains(errOut, "--help」で使い方を表示します") && !strings.Contains(errOut, "「fumibako help」") {
				t.Errorf("no hint to the help: %q", errOut)
			}
		})
	}
	// The exclusions excluded.
	for word, line := range map[string]string{"-下書き": "下書きの見積", "-draft": "draft の見積"} {
		if out, _, _ := f.run("search", "見積", word); strings.Contains(out, line) {
			t.Errorf("%s did not exclude:\n%s", word, out)
		}
	}
}

// TestExitCodes: one case per exit code and cause, through the binary
// (README "Exit codes").
func TestExitCodes(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "りんご\n")
	notDir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notDir, []byte("x"), 0o644)
	for _, tc := range []struct {
		name   string
		setup  func()
		args   []string
		code   int
		stderr string
	}{
		{"index: no folder registered", nil, []string{"index"}, 1, "＜エラー＞ インデックスが登録されていません。fumibako folder add フォルダ で登録してください。"},
		{"folder add", nil, []string{"folder", "add", f.root}, 0, ""},
		{"folder refused", nil, []string{"folder", "rename", "無い", "x"}, 1, "＜エラー＞ "},
		{"index: done", nil, []string{"index"}, 0, ""},
		{"search: hits", nil, []string{"search", "りんご"}, 0, "該当 1 件"},
		{"search: no hits", nil, []string{"search", "みかん"}, 1, "見つかりませんでした。"},
		{"search: bad query", nil, []string{"search", "-りんご"}, 2, "除外するワード（-ワード）のほかに、探すワードを入力してください。"},
		{"search: workspace cannot be opened", nil, []string{"--workspace", filepath.Join(notDir, "ws"), "search", "りんご"}, 1, "＜エラー＞ ワークスペース「" + filepath.Join(notDir, "ws") + "」を開けませんでした"},
		{"status: workspace cannot be opened", nil, []string{"status", "--workspace", filepath.Join(notDir, "ws")}, 1, "を開けませんでした"},
		{"index: all 対象外", func() { f.mustRun("folder", "disable", "営業") }, []string{"index"}, 1, "取り込み対象のインデックスがありません。fumibako folder enable インデックス名 で取り込み対象にしてください。"},
		{"usage", nil, []string{"status", "extra"}, 2, "引数が多すぎます"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			out, errOut, code := f.run(tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("fumibako %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, out, errOut)
			}
			if strings.Contains(errOut, "fumibako: ") || errOut != "" && !strings.HasPrefix(errOut, "＜エラー＞ ") && tc.code != 0 && !strings.Contains(tc.stderr, "見つかりませんでした") {
				t.Errorf("English-style error: %q", errOut)
			}
		})
	}
}

// TestSearchFolderAndExport: --folder takes an index name, 名前\フォルダ
// or an absolute path inside a registered folder; a value that names
// nothing is an error; an export to a missing folder says so.
func TestSearchFolderAndExport(t *testing.T) {
	f := newFixture(t)
	f.write("2024/見積/a.txt", "りんご 2024\n")
	f.write("2025/b.txt", "りんご 2025\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	for _, tc := range []struct {
		folder string
		code   int
		want   string // in stdout (hits) or stderr (errors)
		not    string
	}{
		{"営業", 0, "2025", ""},
		{`営業\2024`, 0, "2024", "2025"},
		{"営業/2024/見積", 0, "2024", "2025"},
		{filepath.Join(f.root, "2024"), 0, "2024", "2025"},
		{f.root, 0, "2025", ""},
		{filepath.Join(filepath.Dir(f.root), "よそ"), 2, "は登録されている元のフォルダの中にありません", ""},
		{"経理", 2, "インデックス「経理」はありません（登録されているインデックス: 営業。", ""},
		{`営業\2023`, 2, `「営業\2023」にあたるフォルダもファイルもありません`, ""},
	} {
		out, errOut, code := f.run("search", "りんご", "--folder", tc.folder)
		got := out
		if code != 0 {
			got = errOut
		}
		if code != tc.code || !strings.Contains(got, tc.want) || tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("--folder %s: exit %d, want %d and %q\nstdout:\n%s\nstderr:\n%s", tc.folder, code, tc.code, tc.want, out, errOut)
		}
	}

	missing := filepath.Join(t.TempDir(), "無い", "out.txt")
	_, errOut, code := f.run("search", "りんご", "--export", missing)
	if code != 1 || !strings.Contains(errOut, "出力先のフォルダ「"+filepath.Dir(missing)+"」がありません。") || strings.Contains(errOut, "閉じて") {
		t.Errorf("export to a missing folder: exit %d, %q", code, errOut)
	}
	good := filepath.Join(t.TempDir(), "out.txt")
	out, _, code := f.run("search", "りんご", "--export", good)
	if code != 0 || !strings.Contains(out, good+" に出力しました（2 件）") {
		t.Errorf("export: exit %d, %q", code, out)
	}
}

// TestFatalErrorOnce: a fatal error of the run is printed once, on stderr,
// in Japanese, whether stdout is the log (plain) or JSON; the log file
// keeps its own copy.
func TestFatalErrorOnce(t *testing.T) {
	for _, mode := range [][]string{{"--plain"}, {"--json"}} {
		t.Run(mode[0], func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "りんご\n")
			f.mustRun("folder", "add", f.root)
			f.env = []string{"FUMIBAKO_TEST_WSFAULT=list-rewrite:1:ENOSPC"}
			out, errOut, code := f.run(append([]string{"index"}, mode...)...)
			msg := faultTexts["ENOSPC"]
			if code != 1 || strings.Count(errOut, msg) != 1 || strings.Count(out, msg) > 1 || mode[0] == "--plain" && strings.Contains(out, msg) {
				t.Errorf("exit %d; the fault message must be on stderr once\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			if mode[0] == "--json" && !strings.Contains(out, `"event":"end"`) || mode[0] == "--json" && !strings.Contains(out, `"exitCode":1`) {
				t.Errorf("no end event with exit code 1:\n%s", out)
			}
			if !strings.Contains(f.log(), msg) {
				t.Errorf("the log lacks the message")
			}
		})
	}
}
