package schedule

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/japanese"
)

// TestSplitWinArgs checks the reader of a task's arguments against the
// examples of Microsoft's "Parsing C command-line arguments", and winArg
// against it: every string, quoted, reads back as itself.
func TestSplitWinArgs(t *testing.T) {
	docs := []struct {
		line string
		want []string
	}{
		{`"abc" d e`, []string{"abc", "d", "e"}},
		{`a\\b d"e f"g h`, []string{`a\\b`, "de fg", "h"}},
		{`a\\\"b c d`, []string{`a\"b`, "c", "d"}},
		{`a\\\\"b c" d e`, []string{`a\\b c`, "d", "e"}},
		{`a"b"" c d`, []string{`ab" c d`}},
	}
	for _, tt := range docs {
		if got := splitWinArgs(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("splitWinArgs(%s) = %q, want %q", tt.line, got, tt.want)
		}
	}
	for _, a := range []string{`C:\Users\山田\文書`, `C:\ws\`, `D:\`, `\\server\share\`, `a b\\`, `x\"y`, "", `--workspace`} {
		line := winArg(a) + " " + winArg("next")
		if got := splitWinArgs(line); !slices.Equal(got, []string{a, "next"}) {
			t.Errorf("winArg(%q) = %s, reads back as %q", a, winArg(a), got)
		}
	}
}

// TestSystemdWordAnalyze lets the real systemd-analyze read each quoted
// path as a program's path (it names the path it did not find), so the
// escapes of SystemdWord are checked by systemd itself, not by a model.
func TestSystemdWordAnalyze(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	dir := t.TempDir()
	tests := []struct {
		name    string
		refused bool // systemd refuses such a program path, so checkPaths does
	}{
		{name: "a%Zb"}, {name: "%h"}, {name: "100%"}, {name: "${HOME}$USER"}, {name: "共有 フォルダ"},
		{name: `back\slash\n`, refused: true}, {name: `it's "x"`, refused: true},
		{name: "ws\n* * * * * touch PWNED", refused: true}, {name: "tab\tx", refused: true},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, "missing", tt.name)
		unit := filepath.Join(dir, "probe.service")
		os.WriteFile(unit, []byte("[Service]\nType=oneshot\nExecStart="+SystemdWord(p, true)+" \"--x\"\n"), 0o644)
		out, _ := exec.Command(analyze, "verify", unit).CombinedOutput()
		want := "Command " + p + " is not executable"
		if tt.refused {
			want = "Executable name contains special characters: " + p
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("SystemdWord(%q) = %s; systemd-analyze says:\n%s", p, SystemdWord(p, true), out)
		}
		s := &Scheduler{GOOS: "linux", Exe: p, Workspace: "/w"}
		if err := s.checkPaths(); (err != nil) != tt.refused {
			t.Errorf("checkPaths(exe %q) = %v, want refused %v", p, err, tt.refused)
		}
	}
}

// TestDecodeToolOutput: schtasks' XML is read whether it comes as UTF-16
// (with or without a BOM), UTF-8 or the console's Shift_JIS.
func TestDecodeToolOutput(t *testing.T) {
	const text = `<Command>"C:\文箱\fumibako.exe"</Command>`
	u16 := func(bom bool) []byte {
		var b []byte
		if bom {
			b = []byte{0xff, 0xfe}
		}
		for _, u := range utf16.Encode([]rune(text)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	sjis, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte(text))
	for name, in := range map[string][]byte{"utf16 bom": u16(true), "utf16": u16(false), "utf8": []byte(text), "sjis": sjis} {
		if got := decodeToolOutput(in, japanese.ShiftJIS); got != text {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// TestLaunchdPaths: a plist carries any text but XML's forbidden control
// characters, which are refused; what is written reads back.
func TestLaunchdPaths(t *testing.T) {
	for _, tt := range []struct {
		ws     string
		refuse bool
	}{
		{ws: "/Users/u/a&b<c>%h$x\n日本\t\r"},
		{ws: "/Users/u/bell\x07", refuse: true},
		{ws: "/Users/u/\xff", refuse: true},
	} {
		fc := &fakeCmds{}
		s := &Scheduler{GOOS: "darwin", Exe: "/Applications/fumi bako/fumibako", Workspace: tt.ws, Dir: t.TempDir(), Run: fc.run}
		err := s.Install(2, 5)
		if tt.refuse {
			if err == nil || !strings.Contains(err.Error(), "launchd の設定ファイル に正しく書けません") || len(fc.lines) > 0 {
				t.Errorf("install(%q) = %v, ran %q; want a refusal", tt.ws, err, fc.lines)
			}
			continue
		}
		if err != nil {
			t.Fatalf("install(%q) = %v", tt.ws, err)
		}
		data, _ := os.ReadFile(s.plistPath())
		if !strings.Contains(string(data), "<string>/Users/u/a&amp;b&lt;c&gt;%h$x\n日本\t&#13;</string>") {
			t.Errorf("plist:\n%s", data)
		}
	}
}
