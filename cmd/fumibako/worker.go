package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/fumibako/fumibako/internal/osfile"
	"github.com/fumibako/fumibako/internal/worker"
)

func init() {
	register(&command{name: worker.Command, hidden: true, summary: "internal: extraction worker", raw: runWorker})
}

// exitOrphaned is the exit status of a worker whose coordinator is gone.
const exitOrphaned = 3

// runWorker is the worker process the indexer starts; its flags are the
// indexer's, never a user's.
func runWorker(e *env, args []string) error {
	fs := flag.NewFlagSet(worker.Command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	scratch := fs.String("scratch", "", "scratch folder")
	memLimit := fs.Int64("mem-limit", 0, "memory limit in bytes")
	parent := fs.Int("parent", 0, "the coordinator's process id")
	ocrProgram := fs.String("ocr", "", "the OCR engine's program")
	ocrCache := fs.String("ocr-cache", "", "the OCR page cache folder")
	if err := fs.Parse(args); err != nil || *scratch == "" {
		return usagef(worker.Command, "bad worker arguments: %q", args)
	}
	cfg := worker.ServeConfig{Scratch: *scratch, MemLimit: *memLimit, Parent: *parent,
		// The coordinator is gone: no one reads an answer or an error.
		Exit:     func() { os.Exit(exitOrphaned) },
		OCR:      workerOCR(*ocrProgram, *scratch),
		OCRCache: *ocrCache}
	// The protocol pipe is UTF-8 JSON: never re-encoded for a console
	// (console.go), so os.Stdout and not e.stdout.
	if err := worker.Serve(context.Background(), osfile.Pipe(os.Stdin), osfile.Pipe(os.Stdout), cfg); err != nil {
		fmt.Fprintln(e.stderr, err)
		return errShown
	}
	return nil
}
