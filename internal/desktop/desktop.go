package desktop

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Mode is how a file opens (openMode in settings.json; reference/gui.md
// §4.8): to edit, read-only, or as a new untitled document based on it
// (`見積1`), which leaves the original unlocked.
type Mode string

const (
	ModeNormal   Mode = "normal"
	ModeReadOnly Mode = "readOnly"
	ModeNew      Mode = "new"
)

// Modes are the open modes in the order the open menu lists them.
var Modes = []Mode{ModeNormal, ModeReadOnly, ModeNew}

// ParseMode reads an openMode value with the settings' one check
// (workspace.ParseOpenMode: any case, "" is normal); anything else is
// ModeNormal and false (settings are read tolerantly: a bad value opens
// files as usual).
func ParseMode(s string) (Mode, bool) {
	m, ok := workspace.ParseOpenMode(s)
	return Mode(m), ok
}

// Messages: the fallbacks say what happened instead (reference/search.md
// §9 gives the read-only one's wording).
const (
	MsgReadOnlyFallback = "読み取り専用で開けなかったため、元のファイルを開きました：%s"
	MsgNewFallback      = "新規に開けなかったため、元のファイルを開きました：%s"
	MsgExcelFallback    = "Excel で開けなかったため、既定のアプリで開きました：%s"
	MsgNoExcel          = "Excel が見つからないため、既定のアプリで開きました：%s"
	msgNotFound         = "%s が見つかりません"
	msgNoOpener         = "%s が見つかりません（xdg-utils を入れてください）"
	msgNotStarted       = "%s を起動できませんでした"
	msgExitCode         = "%s が終了コード %d で終わりました（このファイルを開くアプリが設定されていない可能性があります）"
)

// Target is what to open: a file on disk, the mode, and for Excel the
// hit's place (the stored place name: `売上`, `売上[図形]`,
// `売上[ヘッダー・フッター]`) and cell (`D5`, the first matching cell or
// the anchor of a shape or comment).
type Target struct {
	Path  string
	Mode  Mode
	Place string
	Cell  string
	// Protected: a read-only copy marked as from the Internet
	// (source.ReadOnlyCopy) that must open through the shell, where Office
	// applies Protected View with macros off; Excel's COM would open it
	// without Protected View, so an Excel file takes the shell verb too
	// (no jump to the sheet and cell).
	Protected bool
}

// Command is one program to start. CmdLine, on Windows, is the exact
// command line (for explorer.exe, whose /select,"<path>" does not follow
// the usual quoting); empty means Name and Args quoted as usual. Verdict
// is how long to wait for the program's exit status before it counts as
// having handed the file over (0: do not wait).
type Command struct {
	Name    string
	Args    []string
	CmdLine string
	Verdict time.Duration
}

// String is the command line as tests compare it.
func (c Command) String() string {
	if c.CmdLine != "" {
		return c.CmdLine
	}
	return strings.Join(append([]string{c.Name}, c.Args...), " ")
}

// ExitError is a program that ended with a non-zero status within its
// verdict time.
type ExitError struct {
	Name string
	Code int
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("desktop: %s exited with status %d", e.Name, e.Code)
}

// Desktop opens files on one system. New gives the real one; tests fill
// the fields themselves.
type Desktop struct {
	GOOS string
	// TmpDir is where the Excel script is written (the workspace's
	// work/tmp).
	TmpDir string
	// SystemRoot is %SystemRoot% (Windows).
	SystemRoot string
	// Exec starts a program (runCommand); Shell applies a shell verb to a
	// file (Windows ShellExecute); LookPath finds LibreOffice.
	Exec     func(Command) error
	Shell    func(verb, file string) error
	LookPath func(string) (string, error)
}

// New returns the desktop of this system, writing its scripts under
// tmpDir.
func New(tmpDir string) *Desktop {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return &Desktop{GOOS: runtime.GOOS, TmpDir: tmpDir, SystemRoot: root, Exec: runCommand, Shell: shellExecute, LookPath: lookPath}
}

// Waits for a verdict: xdg-open hands the file over and exits at once
// (issue 18: its failure was taken for success); the Excel script may
// start Excel first.
var (
	openerVerdict = 3 * time.Second
	excelVerdict  = 30 * time.Second
)

// Open opens t.Path as t.Mode says. note is empty, or says in Japanese how
// the file was opened instead (a fallback); err is in Japanese.
func (d *Desktop) Open(t Target) (note string, err error) {
	if _, err := os.Stat(t.Path); err != nil {
		return "", userError(fmt.Sprintf(msgNotFound, t.Path), err)
	}
	if isScript(t.Path) {
		return "", d.openScript(t.Path)
	}
	kind, _ := extract.KindOf(t.Path)
	office := kind == extract.KindExcel || kind == extract.KindWord || kind == extract.KindPowerPoint
	if !office || t.Mode == "" {
		t.Mode = ModeNormal
	}
	if d.GOOS == "windows" {
		switch {
		case kind == extract.KindExcel && !t.Protected:
			return d.openExcel(t)
		case office && t.Mode != ModeNormal:
			return d.openVerb(t)
		}
		return "", d.defaultApp(t.Path)
	}
	if t.Mode == ModeNormal {
		return "", d.defaultApp(t.Path)
	}
	return d.openLibreOffice(t)
}

// OpenFolder shows the folder of a file: Explorer with the file selected,
// Finder with it revealed, or the folder in the file manager.
func (d *Desktop) OpenFolder(file string) error {
	if _, err := os.Stat(file); err != nil {
		return userError(fmt.Sprintf(msgNotFound, file), err)
	}
	switch d.GOOS {
	case "windows":
		exe := d.SystemRoot + `\explorer.exe`
		// Explorer reads its own command line: /select,"<path>" is one
		// argument with the quotes inside. A Windows path holds no `"`.
		return d.start(Command{Name: exe, CmdLine: `"` + exe + `" /select,"` + file + `"`})
	case "darwin":
		return d.start(Command{Name: "open", Args: []string{"-R", file}})
	}
	return d.start(Command{Name: "xdg-open", Args: []string{filepath.Dir(file)}, Verdict: openerVerdict})
}

// OpenURL opens a URL in the default browser.
func (d *Desktop) OpenURL(url string) error {
	switch d.GOOS {
	case "windows":
		return d.start(Command{Name: "rundll32.exe", Args: []string{"url.dll,FileProtocolHandler", url}})
	case "darwin":
		return d.start(Command{Name: "open", Args: []string{url}})
	}
	return d.start(Command{Name: "xdg-open", Args: []string{url}})
}

// defaultApp hands a file to the application the system associates with
// it. On Windows, rundll32's FileProtocolHandler passes the path without
// cmd.exe, so `&`, `^` or `%` in a file name cannot run anything.
func (d *Desktop) defaultApp(path string) error {
	switch d.GOOS {
	case "windows":
		return d.start(Command{Name: "rundll32.exe", Args: []string{"url.dll,FileProtocolHandler", path}})
	case "darwin":
		return d.start(Command{Name: "open", Args: []string{path}, Verdict: openerVerdict})
	}
	return d.start(Command{Name: "xdg-open", Args: []string{path}, Verdict: openerVerdict})
}

// openScript opens a script as text, never running it
// (reference/search.md §9): Notepad on Windows, the text editor on macOS.
func (d *Desktop) openScript(path string) error {
	switch d.GOOS {
	case "windows":
		return d.start(Command{Name: d.SystemRoot + `\System32\notepad.exe`, Args: []string{path}})
	case "darwin":
		return d.start(Command{Name: "open", Args: []string{"-t", path}, Verdict: openerVerdict})
	}
	return d.defaultApp(path)
}

// openVerb opens a Word or PowerPoint file through the shell verb of its
// mode (OpenAsReadOnly, New); a verb the file's application does not
// offer falls back to the default open, and the note says so.
func (d *Desktop) openVerb(t Target) (string, error) {
	verb, msg := "OpenAsReadOnly", MsgReadOnlyFallback
	if t.Mode == ModeNew {
		verb, msg = "New", MsgNewFallback
	}
	if err := d.Shell(verb, t.Path); err == nil {
		return "", nil
	}
	if err := d.defaultApp(t.Path); err != nil {
		return "", err
	}
	return fmt.Sprintf(msg, t.Path), nil
}

// openLibreOffice opens an Office file read-only (soffice --view) or as a
// new document based on it (soffice -n) where LibreOffice is installed;
// elsewhere the default application opens it and the note says so.
func (d *Desktop) openLibreOffice(t Target) (string, error) {
	flag, msg := "--view", MsgReadOnlyFallback
	if t.Mode == ModeNew {
		flag, msg = "-n", MsgNewFallback
	}
	for _, name := range []string{"soffice", "libreoffice"} {
		exe, err := d.LookPath(name)
		if err != nil {
			continue
		}
		if err := d.start(Command{Name: exe, Args: []string{flag, t.Path}, Verdict: openerVerdict}); err == nil {
			return "", nil
		}
		break
	}
	if err := d.defaultApp(t.Path); err != nil {
		return "", err
	}
	return fmt.Sprintf(msg, t.Path), nil
}

// start runs c through Exec and turns its failure into Japanese (shown
// after 元のファイルを開けませんでした), keeping the English cause.
func (d *Desktop) start(c Command) error {
	err := d.Exec(c)
	if err == nil {
		return nil
	}
	name := filepath.Base(c.Name)
	var ee *ExitError
	switch {
	case errors.As(err, &ee):
		return userError(fmt.Sprintf(msgExitCode, name, ee.Code), err)
	case (errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist)) && name == "xdg-open":
		return userError(fmt.Sprintf(msgNoOpener, name), err)
	}
	return userError(fmt.Sprintf(msgNotStarted, name), err)
}

// Error is a failure to open, in Japanese, with its English cause.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

func userError(msg string, cause error) error { return &Error{Msg: msg, Err: cause} }

// scriptExtensions open as text, never with their default (executing)
// application (reference/search.md §9).
var scriptExtensions = map[string]bool{".bat": true, ".cmd": true, ".ps1": true, ".vbs": true, ".js": true, ".reg": true, ".sh": true}

func isScript(path string) bool {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return false
	}
	return scriptExtensions[strings.ToLower(filepath.Ext(path))]
}

// sheetAndCell are the sheet to activate and the cell to select for an
// Excel hit's place (reference/search.md §9): the place without its
// bracketed kind; a header or footer selects no cell.
func sheetAndCell(place, cell string) (string, string) {
	base, kind := content.SplitKind(place)
	if kind == extract.ObjectHeaderFooter {
		cell = ""
	}
	return base, cell
}
