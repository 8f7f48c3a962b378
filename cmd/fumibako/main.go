// Command fumibako indexes Office documents and text files and searches
// them. It only wires: each subcommand parses its flags, calls one package
// and prints (DESIGN.md "The house"). Every command is a row of one table
// (cli.go) with its Japanese help; every command returns an error, and
// report (errors.go) alone prints it and picks the exit code.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// env is what every subcommand gets: output streams and the global flags.
type env struct {
	stdout, stderr io.Writer
	workspaceFlag  string
	verbose        bool
}

// workspace opens the selected workspace; one that cannot be opened is a
// fatal error naming the folder (exit 1, the same for every command).
func (e *env) workspace() (*workspace.Workspace, error) {
	dir, err := workspace.Resolve(e.workspaceFlag)
	if err != nil {
		return nil, &fatalError{msg: msgNoWorkspace, cause: err}
	}
	ws, err := workspace.Open(dir)
	if _, ok := indexer.UserText(err); err != nil && !ok {
		return nil, &fatalError{msg: fmt.Sprintf(msgOpenWorkspace, dir), cause: err}
	}
	if err != nil {
		return nil, err
	}
	return ws, nil
}

func main() {
	stdout, stderr := outputStreams()
	code := run(startArgs(os.Args[1:]), stdout, stderr)
	atExit()
	os.Exit(code)
}

// run runs the command line args and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	top := &command{name: "", words: false}
	fs := flag.NewFlagSet("fumibako", flag.ContinueOnError)
	e.globalFlags(fs)
	// Global flags before the command name; the rest is the command's.
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "--" {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch name {
		case "h", "help":
			writeTopHelp(stdout)
			return exitOK
		case "version":
			if c, ok := commands["version"]; ok {
				return e.runCommand(c, nil)
			}
		}
		f := fs.Lookup(name)
		if f == nil {
			return e.report(unknownFlag(top, fs, args[i], name))
		}
		n := 1
		if !isBool(f) && !hasValue {
			n = 2
		}
		if i+n > len(args) {
			return e.report(usagef("", msgFlagNeedsValue, "--"+name, flagPlaceholder(f)))
		}
		if _, _, err := parseArgs(top, fs, args[i:i+n]); err != nil {
			return e.report(err)
		}
		i += n
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	rest := args[i:]
	if len(rest) == 0 {
		writeTopHelp(stderr)
		return exitUsage
	}
	c, ok := commands[rest[0]]
	if !ok {
		msg := fmt.Sprintf(msgUnknownCommand, rest[0])
		if near := nearestCommand(rest[0]); near != "" {
			msg += fmt.Sprintf(msgDidYouMean, near)
		}
		return e.report(usagef("", "%s", msg))
	}
	return e.runCommand(c, rest[1:])
}

// runCommand resolves a group's subcommand, parses the flags and runs.
func (e *env) runCommand(c *command, args []string) int {
	if c.raw != nil {
		return e.report(c.raw(e, args))
	}
	for c.setup == nil { // a group: the next argument names the subcommand
		if len(args) == 0 {
			e.writeHelp(e.stderr, c)
			return e.report(usagef(c.name, msgNoSub, c.name))
		}
		switch args[0] {
		case "-h", "-help", "--help", "help":
			e.writeHelp(e.stdout, c)
			return exitOK
		}
		sub, ok := commands[c.name+" "+args[0]]
		if !ok || sub.hidden {
			msg := fmt.Sprintf(msgUnknownSub, c.name, args[0])
			if near := nearestSub(c.name, args[0]); near != "" {
				msg += fmt.Sprintf(msgDidYouMean, near)
			}
			return e.report(usagef(c.name, "%s", msg))
		}
		c, args = sub, args[1:]
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	runFn := c.setup(fs)
	pos, literal, err := parseArgs(c, fs, args)
	if errors.Is(err, errHelp) {
		e.writeHelp(e.stdout, c)
		return exitOK
	}
	if err != nil {
		return e.report(err)
	}
	if len(pos) < c.minArgs {
		return e.report(usagef(c.name, msgTooFewArgs))
	}
	if c.maxArgs >= 0 && len(pos) > c.maxArgs {
		return e.report(usagef(c.name, msgTooManyArgs, strings.Join(pos[c.maxArgs:], " ")))
	}
	if c.words {
		pos = literalWords(pos, literal)
	}
	return e.report(runFn(e, pos))
}

// literalWords escapes the words that came after `--` and start with -,
// so that search looks for them as typed instead of excluding them.
func literalWords(pos []string, literal []bool) []string {
	for i, w := range pos {
		if literal[i] && strings.HasPrefix(w, "-") {
			pos[i] = `\` + w
		}
	}
	return pos
}

// loadSettings reads settings.json. A broken file is not an error: it has
// been moved aside and the defaults are returned with the notice to show
// (index logs it; the other commands print it on stderr).
func loadSettings(ws *workspace.Workspace) (s *workspace.Settings, notice string, err error) {
	s, err = ws.LoadSettings()
	var b *workspace.BrokenSettingsError
	if errors.As(err, &b) {
		return s, b.Error(), nil
	}
	return s, "", err
}

func init() {
	register(&command{name: "help", args: "[コマンド [サブコマンド]]", summary: "コマンドの説明を表示する", order: 90,
		about:    "コマンドを指定しなければ、コマンドの一覧と終了コードを表示します。",
		examples: []string{"fumibako help", "fumibako help search", "fumibako help folder add"},
		maxArgs:  2,
		setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
			return runHelp
		}})
}

func runHelp(e *env, args []string) error {
	if len(args) == 0 {
		writeTopHelp(e.stdout)
		return nil
	}
	c, ok := commands[strings.Join(args, " ")]
	if !ok || c.hidden {
		msg := fmt.Sprintf(msgUnknownCommand, strings.Join(args, " "))
		if near := nearestCommand(args[0]); near != "" && len(args) == 1 {
			msg += fmt.Sprintf(msgDidYouMean, near)
		}
		return usagef("", "%s", msg)
	}
	e.writeHelp(e.stdout, c)
	return nil
}
