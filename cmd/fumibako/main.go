// Command fumibako indexes Office documents and text files and searches
// them. It only wires: each subcommand parses its flags, calls one package
// and prints (DESIGN.md "The house").
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Exit codes (DESIGN.md: 0 done, 1 fatal error, 2 stopped; 2 is also a
// usage error, as with most Unix tools).
const (
	exitOK      = 0
	exitFatal   = 1
	exitStopped = 2
	exitUsage   = 2
)

// command is one subcommand. run returns the exit code.
type command struct {
	summary string
	hidden  bool
	run     func(env *env, args []string) int
}

var commands = map[string]*command{}

// env is what every subcommand gets: output streams and the workspace flag.
type env struct {
	stdout, stderr io.Writer
	workspaceFlag  string
}

// workspace opens the selected workspace.
func (e *env) workspace() (*workspace.Workspace, error) {
	dir, err := workspace.Resolve(e.workspaceFlag)
	if err != nil {
		return nil, err
	}
	return workspace.Open(dir)
}

// fail prints an error the way every command does and returns its exit
// code: user errors print their Japanese text, others the English chain.
func (e *env) fail(err error) int {
	var lockErr *workspace.LockError
	var folderErr *workspace.FolderError
	var fault *workspace.FaultError
	switch {
	case errors.As(err, &fault):
		fmt.Fprintln(e.stderr, fault.Error())
		return exitFatal
	case errors.As(err, &lockErr):
		fmt.Fprintln(e.stderr, lockErr.Error())
		return exitFatal
	case errors.As(err, &folderErr):
		fmt.Fprintln(e.stderr, folderErr.Error())
		return exitFatal
	default:
		fmt.Fprintln(e.stderr, "fumibako:", err)
		return exitFatal
	}
}

func main() {
	stdout, stderr := outputStreams()
	os.Exit(run(startArgs(os.Args[1:]), stdout, stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("fumibako", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&e.workspaceFlag, "workspace", "", "workspace folder (default $FUMIBAKO_WORKSPACE or the per-user data folder)")
	fs.Usage = func() { usage(stderr) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest := fs.Args()
	if len(rest) == 0 {
		usage(stderr)
		return exitUsage
	}
	c, ok := commands[rest[0]]
	if !ok {
		fmt.Fprintf(stderr, "fumibako: unknown command %q\n", rest[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(e, rest[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fumibako [--workspace DIR] <command> [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n, c := range commands {
		if !c.hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// newFlags returns a flag set for a subcommand that accepts --workspace
// after the subcommand name as well.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("fumibako "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.StringVar(&e.workspaceFlag, "workspace", e.workspaceFlag, "workspace folder")
	return fs
}

// parseInterspersed parses flags that may appear before or after the
// positional arguments (fumibako search 見積 --regex).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
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
