package desktop

import (
	"bytes"
	"encoding/base64"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeDesktop records every command line and shell verb instead of running
// them; failing names the programs (base names) or verbs that fail, with
// the error to return.
type fakeDesktop struct {
	lines   []string
	failing map[string]error
	soffice bool
}

func (f *fakeDesktop) desktop(goos, tmp string) *Desktop {
	return &Desktop{GOOS: goos, TmpDir: tmp, SystemRoot: `C:\Windows`,
		Exec: func(c Command) error {
			f.lines = append(f.lines, c.String())
			return f.failing[filepath.Base(strings.ReplaceAll(c.Name, `\`, "/"))]
		},
		Shell: func(verb, file string) error {
			f.lines = append(f.lines, "shell "+verb+" "+file)
			return f.failing[verb]
		},
		LookPath: func(name string) (string, error) {
			if f.soffice && name == "soffice" {
				return "/usr/bin/soffice", nil
			}
			return "", exec.ErrNotFound
		},
	}
}

// decodeArgs turns the Excel script's u<base64> arguments back into text.
func decodeArgs(t *testing.T, line string) string {
	f := strings.Fields(line)
	for i, a := range f {
		if !strings.HasPrefix(a, "u") || i < 6 {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(a[1:])
		if err != nil {
			t.Fatalf("argument %q: %v", a, err)
		}
		f[i] = "<" + string(b) + ">"
	}
	return strings.Join(f, " ")
}

// TestOpenCommands: the exact command lines (and shell verbs) per system,
// file kind and open mode, and the note of each fallback.
func TestOpenCommands(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"見積 [1].xlsx", "報告.docx", "発表.pptx", "run.bat", "memo.txt", "図.pdf", "集計.ods"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(dir, "tmp")
	ps := `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe -NoProfile -ExecutionPolicy Bypass -File ` + filepath.Join(tmp, ExcelScriptName)
	tests := []struct {
		name    string
		goos    string
		file    string
		mode    Mode
		place   string
		cell    string
		failing map[string]error
		soffice bool
		// protected: a read-only copy that must open in Protected View
		protected bool
		want      []string
		note      string
	}{
		{name: "excel normal at cell", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上", cell: "D5",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <normal> <売上> <D5>"}},
		{name: "excel readOnly", goos: "windows", file: "見積 [1].xlsx", mode: ModeReadOnly, place: "4月", cell: "A1",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <readOnly> <4月> <A1>"}},
		{name: "excel new", goos: "windows", file: "見積 [1].xlsx", mode: ModeNew, place: "売上", cell: "B2",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <new> <売上> <B2>"}},
		{name: "excel shape anchor", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上[図形]", cell: "F2",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <normal> <売上> <F2>"}},
		{name: "excel comment anchor", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上[コメント]", cell: "C3",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <normal> <売上> <C3>"}},
		{name: "excel header footer selects no cell", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上[ヘッダー・フッター]", cell: "A1",
			want: []string{ps + " <{dir}/見積 [1].xlsx> <normal> <売上> <>"}},
		{name: "excel no place", goos: "windows", file: "集計.ods", mode: ModeReadOnly,
			want: []string{ps + " <{dir}/集計.ods> <readOnly> <> <>"}},
		{name: "excel missing", goos: "windows", file: "見積 [1].xlsx", mode: ModeReadOnly, place: "売上", cell: "D5",
			failing: map[string]error{"powershell.exe": &ExitError{Name: "powershell.exe", Code: 2}},
			want:    []string{ps + " <{dir}/見積 [1].xlsx> <readOnly> <売上> <D5>", "rundll32.exe url.dll,FileProtocolHandler {dir}/見積 [1].xlsx"},
			note:    "Excel が見つからないため、既定のアプリで開きました：{dir}/見積 [1].xlsx"},
		{name: "excel script fails", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上", cell: "D5",
			failing: map[string]error{"powershell.exe": &ExitError{Name: "powershell.exe", Code: 3}},
			want:    []string{ps + " <{dir}/見積 [1].xlsx> <normal> <売上> <D5>", "rundll32.exe url.dll,FileProtocolHandler {dir}/見積 [1].xlsx"},
			note:    "Excel で開けなかったため、既定のアプリで開きました：{dir}/見積 [1].xlsx"},
		{name: "no powershell", goos: "windows", file: "見積 [1].xlsx", mode: ModeNormal,
			failing: map[string]error{"powershell.exe": exec.ErrNotFound},
			want:    []string{ps + " <{dir}/見積 [1].xlsx> <normal> <> <>", "rundll32.exe url.dll,FileProtocolHandler {dir}/見積 [1].xlsx"},
			note:    "Excel で開けなかったため、既定のアプリで開きました：{dir}/見積 [1].xlsx"},
		{name: "excel protected copy through the shell verb", goos: "windows", file: "見積 [1].xlsx", mode: ModeReadOnly, place: "売上", cell: "D5", protected: true,
			want: []string{"shell OpenAsReadOnly {dir}/見積 [1].xlsx"}},
		{name: "word protected copy read-only verb", goos: "windows", file: "報告.docx", mode: ModeReadOnly, protected: true,
			want: []string{"shell OpenAsReadOnly {dir}/報告.docx"}},
		{name: "word normal", goos: "windows", file: "報告.docx", mode: ModeNormal,
			want: []string{"rundll32.exe url.dll,FileProtocolHandler {dir}/報告.docx"}},
		{name: "word readOnly", goos: "windows", file: "報告.docx", mode: ModeReadOnly,
			want: []string{"shell OpenAsReadOnly {dir}/報告.docx"}},
		{name: "word new", goos: "windows", file: "報告.docx", mode: ModeNew,
			want: []string{"shell New {dir}/報告.docx"}},
		{name: "powerpoint readOnly verb missing", goos: "windows", file: "発表.pptx", mode: ModeReadOnly,
			failing: map[string]error{"OpenAsReadOnly": errors.New("no association")},
			want:    []string{"shell OpenAsReadOnly {dir}/発表.pptx", "rundll32.exe url.dll,FileProtocolHandler {dir}/発表.pptx"},
			note:    "読み取り専用で開けなかったため、元のファイルを開きました：{dir}/発表.pptx"},
		{name: "powerpoint new verb missing", goos: "windows", file: "発表.pptx", mode: ModeNew,
			failing: map[string]error{"New": errors.New("no association")},
			want:    []string{"shell New {dir}/発表.pptx", "rundll32.exe url.dll,FileProtocolHandler {dir}/発表.pptx"},
			note:    "新規に開けなかったため、元のファイルを開きました：{dir}/発表.pptx"},
		{name: "script in notepad whatever the mode", goos: "windows", file: "run.bat", mode: ModeNew,
			want: []string{`C:\Windows\System32\notepad.exe {dir}/run.bat`}},
		{name: "text ignores the mode", goos: "windows", file: "memo.txt", mode: ModeReadOnly,
			want: []string{"rundll32.exe url.dll,FileProtocolHandler {dir}/memo.txt"}},
		{name: "pdf ignores the mode", goos: "windows", file: "図.pdf", mode: ModeNew,
			want: []string{"rundll32.exe url.dll,FileProtocolHandler {dir}/図.pdf"}},
		{name: "linux normal", goos: "linux", file: "見積 [1].xlsx", mode: ModeNormal, place: "売上", cell: "D5",
			want: []string{"xdg-open {dir}/見積 [1].xlsx"}},
		{name: "linux readOnly with libreoffice", goos: "linux", file: "報告.docx", mode: ModeReadOnly, soffice: true,
			want: []string{"/usr/bin/soffice --view {dir}/報告.docx"}},
		{name: "linux new with libreoffice", goos: "linux", file: "見積 [1].xlsx", mode: ModeNew, soffice: true,
			want: []string{"/usr/bin/soffice -n {dir}/見積 [1].xlsx"}},
		{name: "linux readOnly without libreoffice", goos: "linux", file: "報告.docx", mode: ModeReadOnly,
			want: []string{"xdg-open {dir}/報告.docx"},
			note: "読み取り専用で開けなかったため、元のファイルを開きました：{dir}/報告.docx"},
		{name: "linux script", goos: "linux", file: "run.bat", mode: ModeNormal,
			want: []string{"xdg-open {dir}/run.bat"}},
		{name: "mac normal", goos: "darwin", file: "発表.pptx", mode: ModeNormal,
			want: []string{"open {dir}/発表.pptx"}},
		{name: "mac readOnly", goos: "darwin", file: "発表.pptx", mode: ModeReadOnly, soffice: true,
			want: []string{"/usr/bin/soffice --view {dir}/発表.pptx"}},
		{name: "mac script as text", goos: "darwin", file: "run.bat", mode: ModeNormal,
			want: []string{"open -t {dir}/run.bat"}},
	}
	sub := func(s string) string { return strings.ReplaceAll(s, "{dir}/", dir+string(filepath.Separator)) }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeDesktop{failing: tt.failing, soffice: tt.soffice}
			d := f.desktop(tt.goos, tmp)
			note, err := d.Open(Target{Path: filepath.Join(dir, tt.file), Mode: tt.mode, Place: tt.place, Cell: tt.cell, Protected: tt.protected})
			if err != nil {
				t.Fatalf("Open = %v", err)
			}
			var got, want []string
			for _, l := range f.lines {
				got = append(got, decodeArgs(t, l))
			}
			for _, l := range tt.want {
				want = append(want, sub(l))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ran\n%q\nwant\n%q", got, want)
			}
			if note != sub(tt.note) {
				t.Errorf("note = %q, want %q", note, sub(tt.note))
			}
		})
	}
}

// TestOpenFolder: Explorer selects the file (its own /select,"…" command
// line), Finder reveals it, xdg-open opens the folder.
func TestOpenFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "見積 (1).xlsx")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, tt := range []struct{ goos, want string }{
		{"windows", `"C:\Windows\explorer.exe" /select,"` + file + `"`},
		{"darwin", "open -R " + file},
		{"linux", "xdg-open " + dir},
	} {
		t.Run(tt.goos, func(t *testing.T) {
			f := &fakeDesktop{}
			if err := f.desktop(tt.goos, dir).OpenFolder(file); err != nil {
				t.Fatal(err)
			}
			if len(f.lines) != 1 || f.lines[0] != tt.want {
				t.Errorf("ran %q, want %q", f.lines, tt.want)
			}
		})
	}
}

// TestOpenFailures: a missing file and an opener that fails are errors
// in Japanese that keep their English cause.
func TestOpenFailures(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, tt := range []struct {
		name, path string
		failing    map[string]error
		want       string
	}{
		{"missing file", filepath.Join(dir, "none.txt"), nil, "none.txt が見つかりません"},
		{"no xdg-open", file, map[string]error{"xdg-open": exec.ErrNotFound}, "xdg-open が見つかりません（xdg-utils を入れてください）"},
		{"xdg-open fails", file, map[string]error{"xdg-open": &ExitError{Name: "xdg-open", Code: 3}}, "xdg-open が終了コード 3 で終わりました"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeDesktop{failing: tt.failing}
			_, err := f.desktop("linux", dir).Open(Target{Path: tt.path})
			var de *Error
			if !errors.As(err, &de) || !strings.Contains(de.Msg, tt.want) || errors.Unwrap(err) == nil {
				t.Errorf("Open = %v, want %q with a cause", err, tt.want)
			}
		})
	}
}

// TestExcelScript: the script written into work/tmp, byte for byte
// (golden file; -update rewrites it), written again unchanged by every
// open, and its arguments round-trip names PowerShell would misread.
func TestExcelScript(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.xlsx")
	os.WriteFile(file, []byte("x"), 0o644)
	tmp := filepath.Join(dir, "work", "tmp")
	f := &fakeDesktop{}
	d := f.desktop("windows", tmp)
	for range 2 {
		if _, err := d.Open(Target{Path: file, Mode: ModeReadOnly, Place: "-1", Cell: "A1"}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.Join(tmp, ExcelScriptName))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "TestExcelScript", ExcelScriptName+".golden")
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("script differs from %s (go test -update to rewrite)", golden)
	}
	if !bytes.HasPrefix(got, []byte("\xef\xbb\xbf")) || bytes.Contains(bytes.ReplaceAll(got, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("script is not UTF-8 with BOM and CRLF")
	}
	for _, b := range got[3:] {
		if b >= 0x80 {
			t.Fatal("script holds a non-ASCII byte")
		}
	}
	for _, must := range []string{"AutomationSecurity = 2", "finally { $xl.AutomationSecurity = $security }", "Workbooks.Open($path, 0, $true)", "Workbooks.Add($path)", "exit 2", "exit 3"} {
		if !bytes.Contains(got, []byte(must)) {
			t.Errorf("script lacks %q", must)
		}
	}
	for _, s := range []string{"", "-1", `a "b" c\`, "売上（4月）", "$(calc)"} {
		enc := scriptArg(s)
		if strings.ContainsAny(enc, " \"'-$`") || enc == "" {
			t.Errorf("scriptArg(%q) = %q", s, enc)
		}
		dec, _ := base64.StdEncoding.DecodeString(enc[1:])
		if string(dec) != s {
			t.Errorf("scriptArg(%q) decodes to %q", s, dec)
		}
	}
}

// TestRunCommandVerdict: the real runner reports an exit status within
// the verdict time, and a program still running as opened (the test
// binary itself is the program: TestHelperProcess).
func TestRunCommandVerdict(t *testing.T) {
	helper := func(what string, verdict time.Duration) Command {
		return Command{Name: os.Args[0], Args: []string{"-test.run=^TestHelperProcess$", "--", what}, Verdict: verdict}
	}
	var ee *ExitError
	if err := runCommand(helper("exit3", 30*time.Second)); !errors.As(err, &ee) || ee.Code != 3 {
		t.Errorf("runCommand(exit 3) = %v", err)
	}
	if err := runCommand(helper("sleep", 200*time.Millisecond)); err != nil {
		t.Errorf("runCommand(still running) = %v", err)
	}
	if err := runCommand(helper("exit0", 30*time.Second)); err != nil {
		t.Errorf("runCommand(exit 0) = %v", err)
	}
	if err := runCommand(Command{Name: "fumibako-no-such-program"}); err == nil {
		t.Error("runCommand(missing program) = nil")
	}
}

// TestHelperProcess is the program TestRunCommandVerdict runs.
func TestHelperProcess(t *testing.T) {
	args := flag.Args()
	if len(args) != 1 {
		return
	}
	switch args[0] {
	case "exit3":
		os.Exit(3)
	case "sleep":
		time.Sleep(3 * time.Second)
	}
	os.Exit(0)
}

// TestShellVerbMissing: on Windows the real ShellExecute call answers an
// error for a verb no application registers (here: a file type nobody
// registers), which is what makes openVerb fall back; elsewhere there are
// no shell verbs.
func TestShellVerbMissing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.fumibakotest")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := shellExecute("OpenAsReadOnly", file); err == nil {
		t.Errorf("shellExecute(OpenAsReadOnly, %s) = nil", file)
	}
}

func TestParseMode(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Mode
		ok   bool
	}{{"", ModeNormal, true}, {"normal", ModeNormal, true}, {"readOnly", ModeReadOnly, true}, {"new", ModeNew, true}, {"readonly", ModeReadOnly, true}, {" New ", ModeNew, true}, {"edit", ModeNormal, false}, {"読み取り専用", ModeNormal, false}} {
		if m, ok := ParseMode(tt.in); m != tt.want || ok != tt.ok {
			t.Errorf("ParseMode(%q) = %v %v, want %v %v", tt.in, m, ok, tt.want, tt.ok)
		}
	}
}

// TestModesMatchSettings: the settings reader accepts exactly the modes
// the opener knows.
func TestModesMatchSettings(t *testing.T) {
	var got []string
	for _, m := range Modes {
		got = append(got, string(m))
	}
	if !reflect.DeepEqual(got, workspace.OpenModes) {
		t.Errorf("desktop.Modes = %q, workspace.OpenModes = %q", got, workspace.OpenModes)
	}
}
