package schedule

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// How the command line of the scheduled run is written into each
// scheduler's format (issue 36 item 3). A path is either escaped so that
// the scheduler hands the program exactly that path, or refused before
// anything is registered (schedUnsafeError):
//
//   - crontab: each word in shell single quotes; cron itself turns an
//     unescaped % into a newline (the rest becomes the command's input), so
//     % is written \%. A newline cannot be written at all (it ends the
//     line: what follows would be a crontab entry of its own), nor can a
//     control character; a backslash is refused too, because cron
//     implementations disagree on what \\ and \% after a backslash mean.
//   - systemd ExecStart: each word in double quotes with C escapes (\\,
//     \", \n, \t, \r, \xNN); % is written %% (specifiers: %h, %Z, …); in
//     the arguments $ is written $$ (${VAR}, $VAR substitution), not in the
//     program's path, which systemd takes literally. A path that is not
//     UTF-8 is refused (systemd rejects such unit files), and so is a
//     program's path with a control character, \, " or ' (systemd refuses
//     such an executable name: "Executable name contains special
//     characters").
//   - Task Scheduler /TR: the program in double quotes, the arguments
//     quoted by the rules programs parse them with (CommandLineToArgvW:
//     backslashes before a quote or the end are doubled). % is refused: the
//     scheduler expands %VAR% and has no escape for it; " and control
//     characters cannot be in a Windows path and are refused.
//   - launchd plist: XML text; a control character other than tab, CR and
//     LF cannot be in XML 1.0 and is refused, as is a path that is not
//     UTF-8.

// msgSchedUnsafe refuses a path: what (the workspace or the executable),
// the path, the character, the scheduler.
const msgSchedUnsafe = "%[1]s「%[2]s」には%[3]sが含まれているため、%[4]s に正しく書けません（書くと別のコマンドとして実行されるおそれがあります）。%[3]sを含まない場所にある%[1]sで登録してください。"

// Names of what a path belongs to, and of the characters refused.
const (
	whatWorkspace = "ワークスペース"
	whatExe       = "fumibako の実行ファイル"
	charNewline   = "改行"
	charControl   = "制御文字"
	charNotUTF8   = "UTF-8 として読めない文字"
	charPercent   = "「%」"
	charBackslash = "「\\」"
	charQuote     = "「\"」"
	charApos      = "「'」"
)

// schedUnsafeError is a path that cannot be written safely into a
// scheduler's format; nothing was registered.
type schedUnsafeError struct {
	what, path, char, format string
}

func (e *schedUnsafeError) Error() string {
	return fmt.Sprintf(msgSchedUnsafe, e.what, visible(e.path), e.char, e.format)
}

// visible shows a path in a message with its control characters escaped
// (a newline as \n), so that the message stays one readable line.
func visible(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// formatName names a scheduler's format in messages.
func (s *Scheduler) formatName() string {
	switch {
	case s.GOOS == "windows":
		return "タスク スケジューラ"
	case s.GOOS == "darwin":
		return "launchd の設定ファイル"
	case s.Cron:
		return "crontab"
	}
	return "systemd のユニット ファイル"
}

// checkPaths refuses the executable's or the workspace's path when the
// scheduler's format cannot carry it (see the top of this file).
func (s *Scheduler) checkPaths() error {
	for _, p := range []struct{ what, path string }{{whatExe, s.Exe}, {whatWorkspace, s.Workspace}} {
		if c := s.unsafeChar(p.path, p.what == whatExe); c != "" {
			return &schedUnsafeError{what: p.what, path: p.path, char: c, format: s.formatName()}
		}
	}
	return nil
}

// unsafeChar names the first kind of character of p (the program's path
// when exe) that the scheduler's format cannot carry, "" when there is
// none.
func (s *Scheduler) unsafeChar(p string, exe bool) string {
	hasCtl := func(allowed string) string {
		for _, r := range p {
			if r == '\n' || r == '\r' {
				if !strings.ContainsRune(allowed, r) {
					return charNewline
				}
				continue
			}
			if (r < 0x20 || r == 0x7f) && !strings.ContainsRune(allowed, r) {
				return charControl
			}
		}
		return ""
	}
	switch {
	case s.GOOS == "windows":
		if c := hasCtl(""); c != "" {
			return c
		}
		if strings.Contains(p, "%") {
			return charPercent
		}
		if strings.Contains(p, `"`) {
			return charQuote
		}
	case s.GOOS == "darwin":
		if !utf8.ValidString(p) {
			return charNotUTF8
		}
		return hasCtl("\t\n\r")
	case s.Cron:
		if c := hasCtl("\t"); c != "" {
			return c
		}
		if strings.Contains(p, `\`) {
			return charBackslash
		}
	default:
		if !utf8.ValidString(p) {
			return charNotUTF8
		}
		if !exe {
			break
		}
		if c := hasCtl(""); c != "" {
			return c
		}
		for _, c := range []struct{ ch, name string }{{`\`, charBackslash}, {`"`, charQuote}, {"'", charApos}} {
			if strings.Contains(p, c.ch) {
				return c.name
			}
		}
	}
	return ""
}

// CronWord quotes one word of the crontab command: shell single quotes,
// with cron's % escaped. checkPaths has refused what it cannot carry.
func CronWord(s string) string { return strings.ReplaceAll(shQuote(s), "%", `\%`) }

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// SystemdWord quotes one word of an ExecStart line: double quotes, C
// escapes, %% for a specifier's %, and $$ for $ in an argument (exe is
// false); the program's own path is taken literally by systemd but for
// its specifiers.
func SystemdWord(s string, exe bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '%':
			b.WriteString("%%")
		case r == '$' && !exe:
			b.WriteString("$$")
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// winExe quotes the program of a Task Scheduler command line: the program
// name is read up to the closing quote, with no escapes.
func winExe(s string) string { return `"` + s + `"` }

// winArg quotes an argument by the rules of CommandLineToArgvW (and Go's
// os.Args on Windows): backslashes are literal unless they come before a
// quote, where 2n backslashes give n; so a run of backslashes before the
// closing quote is doubled, and a quote inside is \".
func winArg(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, r := range s {
		switch r {
		case '\\':
			slashes++
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
		default:
			b.WriteString(strings.Repeat(`\`, slashes))
		}
		slashes = 0
		b.WriteRune(r)
	}
	b.WriteString(strings.Repeat(`\`, 2*slashes))
	b.WriteByte('"')
	return b.String()
}

// splitWinArgs splits the arguments part of a Windows command line as
// CommandLineToArgvW does (not the program name, which has no escapes),
// for checking what Task Scheduler holds.
func splitWinArgs(line string) []string {
	var args []string
	var cur strings.Builder
	in, started := false, false
	slashes := 0
	flushSlashes := func() {
		cur.WriteString(strings.Repeat(`\`, slashes))
		slashes = 0
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			slashes++
			started = true
		case c == '"':
			cur.WriteString(strings.Repeat(`\`, slashes/2))
			odd := slashes%2 == 1
			slashes = 0
			started = true
			switch {
			case odd:
				cur.WriteByte('"')
			case in && i+1 < len(line) && line[i+1] == '"':
				cur.WriteByte('"') // "" inside quotes: a literal quote
				i++
			default:
				in = !in
			}
		case (c == ' ' || c == '\t') && !in:
			flushSlashes()
			if started {
				args = append(args, cur.String())
				cur.Reset()
				started = false
			}
		default:
			flushSlashes()
			cur.WriteByte(c)
			started = true
		}
	}
	flushSlashes()
	if started {
		args = append(args, cur.String())
	}
	return args
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;").Replace(s)
}
