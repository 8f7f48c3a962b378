package main

import (
	"flag"
	"fmt"
)

// version is stamped at build time: make dist (and make build) pass
// -ldflags "-X main.version=v0.N.M", the release version tools/dist takes
// from git describe of a v0.N.M tag (v0.0.0-<n>-g<hash> without one).
var version = "dev"

func init() {
	register(&command{name: "version", summary: "版を表示する", order: 80,
		about:    "fumibako --version でも表示します。",
		examples: []string{"fumibako version"},
		setup: func(fs *flag.FlagSet) func(*env, []string) error {
			return runVersion
		}})
}

func runVersion(e *env, args []string) error {
	fmt.Fprintln(e.stdout, "fumibako", version)
	return nil
}

// startArgs maps how the program was started to the arguments run gets:
// --version is the version command, and no arguments at all when no
// console was there before it (Explorer's double click on Windows) starts
// the web UI and opens the browser, as users of such tools expect.
func startArgs(args []string) []string {
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-version"):
		return []string{"version"}
	case len(args) == 0 && startedWithoutConsole():
		return []string{"serve", "--open"}
	}
	return args
}
