package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/fumibako/fumibako/internal/worker"
)

func init() {
	commands[worker.Command] = &command{hidden: true, summary: "internal: extraction worker", run: runWorker}
}

func runWorker(e *env, args []string) int {
	fs := flag.NewFlagSet(worker.Command, flag.ContinueOnError)
	scratch := fs.String("scratch", "", "scratch folder")
	memLimit := fs.Int64("mem-limit", 0, "memory limit in bytes")
	if err := fs.Parse(args); err != nil || *scratch == "" {
		return exitUsage
	}
	// The protocol pipe is UTF-8 JSON: never re-encoded for a console
	// (console.go), so os.Stdout and not e.stdout.
	if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, *scratch, *memLimit); err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFatal
	}
	return exitOK
}
