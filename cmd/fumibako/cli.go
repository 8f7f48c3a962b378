package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/fumibako/fumibako/internal/textfold"
)

// command is one row of the command table: a command ("search") or a
// subcommand ("folder add"). Its help text is Japanese, as every message.
type command struct {
	name     string   // "search", "folder add"
	args     string   // what follows the name in the usage line
	summary  string   // one line for the list of commands
	about    string   // paragraphs shown by --help
	examples []string // command lines shown by --help
	order    int      // position in the list of commands
	hidden   bool     // not listed (the worker)
	// words marks a command whose `-語` arguments are words (search's
	// exclusions): a single-dash argument is a flag only when it names one
	// or looks like a mistyped one (see parseArgs).
	words bool
	// minArgs and maxArgs bound the positional arguments (maxArgs -1: any).
	minArgs, maxArgs int
	// setup declares the flags on fs and returns the function that runs the
	// command with the positional arguments; nil for a group ("folder").
	setup func(fs *flag.FlagSet) func(e *env, args []string) error
	// raw commands get their arguments unparsed (the worker).
	raw func(e *env, args []string) error
}

// commands is the command table, filled by each command's file.
var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// subcommands lists the subcommands of a group in table order.
func subcommands(group string) []*command {
	var out []*command
	for name, c := range commands {
		if strings.HasPrefix(name, group+" ") && !c.hidden {
			out = append(out, c)
		}
	}
	sortCommands(out)
	return out
}

func sortCommands(cs []*command) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].order != cs[j].order {
			return cs[i].order < cs[j].order
		}
		return cs[i].name < cs[j].name
	})
}

// topCommands lists the commands shown by `fumibako help`.
func topCommands() []*command {
	var out []*command
	for name, c := range commands {
		if !strings.Contains(name, " ") && !c.hidden {
			out = append(out, c)
		}
	}
	sortCommands(out)
	return out
}

// globalFlags declares the flags every command accepts, before or after
// its name.
func (e *env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.workspaceFlag, "workspace", e.workspaceFlag, "ワークスペースの`フォルダ`（既定: 環境変数 FUMIBAKO_WORKSPACE、なければ利用者ごとのデータフォルダ）")
	fs.BoolVar(&e.verbose, "verbose", e.verbose, "詳しい情報も表示する（予期しないエラーの詳細、検索の統計）")
}

var errHelp = errors.New("cmd: help requested")

// usageError is a command line that cannot run: exit 2, with its text and
// the command whose help lists what is possible.
type usageError struct {
	cmd string
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd, format string, a ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, a...)}
}

// parseArgs reads the flags of c from args, interspersed with the
// positional arguments (fumibako search 見積 --regex).
//
//   - `--name`, `-name`, `--name=value`, `--name value`: a flag of c or a
//     global flag; `-h`, `-help`, `--help` ask for help (errHelp).
//   - `--` ends the flags: every later argument is positional, even one
//     that starts with -. For search, such a word is searched as typed
//     (`search -- --help` searches "--help").
//   - any other argument starting with `--`, or `-x` that is no flag, is
//     an unknown flag (a usage error naming the nearest flag); except for
//     search, where `-語` is an excluded word unless it is ASCII and close
//     to a flag's name (a mistyped `-regx` is refused, `-下書き` and
//     `-draft` exclude words).
//
// literal reports, per positional argument, whether it came after `--`.
func parseArgs(c *command, fs *flag.FlagSet, args []string) (pos []string, literal []bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, rest := range args[i+1:] {
				pos, literal = append(pos, rest), append(literal, true)
			}
			return pos, literal, nil
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			pos, literal = append(pos, a), append(literal, false)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if name == "h" || name == "help" {
			return nil, nil, errHelp
		}
		f := fs.Lookup(name)
		if f == nil {
			if c.words && !strings.HasPrefix(a, "--") && !nearFlag(fs, name) {
				pos, literal = append(pos, a), append(literal, false)
				continue
			}
			return nil, nil, unknownFlag(c, fs, a, name)
		}
		if isBool(f) {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 >= len(args) {
				return nil, nil, usagef(c.name, msgFlagNeedsValue, "--"+name, flagPlaceholder(f))
			}
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, nil, usagef(c.name, msgFlagBadValue, "--"+name, value, valueHint(f))
		}
	}
	return pos, literal, nil
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// valueHint says what a flag's value must look like.
func valueHint(f *flag.Flag) string {
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case bool:
			return msgHintBool
		case int, int64:
			return msgHintInt
		case time.Duration:
			return msgHintDuration
		}
	}
	return msgHintText
}

// nearFlag reports whether name, typed after a single dash, looks like a
// mistyped flag rather than a word: ASCII letters, digits and dashes only,
// and near a flag's name by the one suggestion rule (textfold.Nearest).
func nearFlag(fs *flag.FlagSet, name string) bool {
	for _, r := range name {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
			return false
		}
	}
	_, ok := textfold.Nearest(name, flagNames(fs))
	return ok
}

// flagNames lists the names of fs's flags, the candidates of a suggestion.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

func unknownFlag(c *command, fs *flag.FlagSet, arg, name string) error {
	msg := fmt.Sprintf(msgUnknownFlag, arg)
	if best, ok := textfold.Nearest(name, flagNames(fs)); ok {
		msg += fmt.Sprintf(msgDidYouMean, "--"+best)
	}
	if c.words && !strings.HasPrefix(arg, "--") {
		msg += "\n" + fmt.Sprintf(msgExcludeHint, name, name)
	}
	return usagef(c.name, "%s", msg)
}

// nearestCommand returns the command name closest to name, or "".
func nearestCommand(name string) string {
	var names []string
	for _, c := range topCommands() {
		names = append(names, c.name)
	}
	best, _ := textfold.Nearest(name, names)
	return best
}

// unknownIndex is the usage error of cmd for an index name that is not
// registered: the registered names, and the nearest one if any.
func unknownIndex(cmd, name string, names []string) error {
	msg := fmt.Sprintf(msgUnknownIndex, name, strings.Join(names, "、"))
	if near, ok := textfold.Nearest(name, names); ok {
		msg += fmt.Sprintf(msgDidYouMean, near)
	}
	return usagef(cmd, "%s", msg)
}

// nearestSub returns the subcommand of group closest to name, or "".
func nearestSub(group, name string) string {
	var names []string
	for _, c := range subcommands(group) {
		names = append(names, strings.TrimPrefix(c.name, group+" "))
	}
	best, _ := textfold.Nearest(name, names)
	return best
}

// flagPlaceholder is the value's name in help (`フォルダ` from the usage
// text's back quotes), or "" for a switch.
func flagPlaceholder(f *flag.Flag) string {
	if isBool(f) {
		return ""
	}
	name, _ := flag.UnquoteUsage(f)
	if name == "value" || name == "" {
		return "値"
	}
	return name
}

// writeHelp prints the help of c: usage line, description, flags and
// examples, aligned by display width.
func (e *env) writeHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "fumibako %s — %s\n\n", c.name, c.summary)
	if c.setup == nil && c.raw == nil {
		fmt.Fprintf(w, msgUsageLine+"\n\n", c.name+" "+c.args)
		var rows [][2]string
		for _, s := range subcommands(c.name) {
			rows = append(rows, [2]string{strings.TrimPrefix(s.name, c.name+" "), s.summary})
		}
		fmt.Fprintln(w, msgSubcommands)
		writeColumns(w, rows)
		if c.about != "" {
			fmt.Fprintf(w, "\n%s\n", c.about)
		}
		fmt.Fprintf(w, "\n"+msgSubHelpHint+"\n", c.name)
		return
	}
	fmt.Fprintf(w, msgUsageLine+"\n", strings.TrimSpace(c.name+" "+c.args))
	if c.about != "" {
		fmt.Fprintf(w, "\n%s\n", c.about)
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	if c.setup != nil {
		c.setup(fs)
	}
	var own [][2]string
	fs.VisitAll(func(f *flag.Flag) { own = append(own, flagRow(f)) })
	global := flag.NewFlagSet("", flag.ContinueOnError)
	(&env{}).globalFlags(global)
	var common [][2]string
	global.VisitAll(func(f *flag.Flag) { common = append(common, flagRow(f)) })
	common = append(common, [2]string{"-h, --help", msgHelpFlag})
	if len(own) > 0 {
		fmt.Fprintf(w, "\n%s\n", msgOptions)
		writeColumns(w, own)
	}
	fmt.Fprintf(w, "\n%s\n", msgCommonOptions)
	writeColumns(w, common)
	if len(c.examples) > 0 {
		fmt.Fprintf(w, "\n%s\n", msgExamples)
		for _, ex := range c.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

// flagRow is a flag's line in help: `--name 値` and its usage text.
func flagRow(f *flag.Flag) [2]string {
	left := "--" + f.Name
	if p := flagPlaceholder(f); p != "" {
		left += " " + p
	}
	_, usage := flag.UnquoteUsage(f)
	if !isBool(f) && f.DefValue != "" && f.DefValue != "0" && f.DefValue != "[]" && f.DefValue != "0s" && !strings.Contains(usage, "既定") {
		usage += fmt.Sprintf("（既定: %s）", f.DefValue)
	}
	return [2]string{left, usage}
}

// writeColumns prints two columns, the first padded to its widest cell in
// display columns.
func writeColumns(w io.Writer, rows [][2]string) {
	wide := 0
	for _, r := range rows {
		wide = max(wide, displayWidth(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %s  %s\n", padRight(r[0], wide), r[1])
	}
}

// writeTopHelp is `fumibako help`: every command and the exit codes.
func writeTopHelp(w io.Writer) {
	fmt.Fprintln(w, msgTopAbout)
	fmt.Fprintf(w, "\n"+msgUsageLine+"\n\n", "[--workspace フォルダ] コマンド [引数]")
	fmt.Fprintln(w, msgCommands)
	var rows [][2]string
	for _, c := range topCommands() {
		rows = append(rows, [2]string{c.name, c.summary})
	}
	writeColumns(w, rows)
	fmt.Fprintf(w, "\n%s\n\n%s\n", msgTopHelpHint, msgExitCodes)
}
