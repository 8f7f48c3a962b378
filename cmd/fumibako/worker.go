package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/fumibako/fumibako/internal/worker"
)

func init() {
	register(&command{name: worker.Command, hidden: true, summary: "internal: extraction worker", raw: runWorker})
}

// runWorker is the worker process the indexer starts; its flags are the
// indexer's, never a user's.
func runWorker(e *env, args []string) error {
	fs := flag.NewFlagSet(worker.Command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	scratch := fs.String("scratch", "", "scratch folder")
	memLimit := fs.Int64("mem-limit", 0, "memory limit in bytes")
	if err := fs.Parse(args); err != nil || *scratch == "" {
		return usagef(worker.Command, "bad worker arguments: %q", args)
	}
	// The protocol pipe is UTF-8 JSON: never re-encoded for a console
	// (console.go), so os.Stdout and not e.stdout.
	if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, *scratch, *memLimit); err != nil {
		fmt.Fprintln(e.stderr, err)
		return errShown
	}
	return nil
}
