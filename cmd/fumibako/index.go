package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	commands["index"] = &command{summary: "crawl the checked folders and ingest what changed [--only NAME] [--retry-failed] [--reset-list] [--workers N] [--file-timeout D]", run: runIndex}
}

func runIndex(e *env, args []string) int {
	fs := newFlags(e, "index")
	retry := fs.Bool("retry-failed", false, "ingest files that failed before and have not changed since")
	resetList := fs.Bool("reset-list", false, "move an ingest list that cannot be read aside (ingest_status.tsv.broken-…) and ingest everything again")
	workers := fs.Int("workers", 0, "worker processes (default: number of CPUs)")
	timeout := fs.Duration("file-timeout", 0, "per-file deadline (default 10m)")
	memMB := fs.Int64("worker-memory", 0, "memory cap per worker in MiB (default 2048; -1 = none)")
	plain := fs.Bool("plain", false, "plain log lines even on a terminal")
	var only listFlag
	fs.Var(&only, "only", "update only this index, leaving the others as they are (repeatable)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitUsage
	}
	ws, err := e.workspace()
	if err != nil {
		return e.fail(err)
	}
	s, notice, err := loadSettings(ws)
	if err != nil {
		return e.fail(err)
	}
	var notices []string
	if notice != "" {
		notices = append(notices, notice)
	}
	if *workers == 0 {
		*workers = s.Workers
	}
	if *timeout == 0 && s.FileTimeoutMinutes > 0 {
		*timeout = time.Duration(s.FileTimeoutMinutes) * time.Minute
	}
	exe, err := os.Executable()
	if err != nil {
		return e.fail(err)
	}
	stop, kill := make(chan struct{}), make(chan struct{})
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		<-sig
		close(stop)
		<-sig
		close(kill)
	}()
	mem := *memMB << 20
	if *memMB < 0 {
		mem = -1
	}
	ui := newProgressUI(e.stdout, *plain)
	sum, err := indexer.Run(indexer.Options{
		Workspace:   ws,
		Settings:    s,
		Body:        bodyindex.Store{},
		RetryFailed: *retry,
		ResetList:   *resetList,
		OnlyNames:   only,
		Workers:     *workers,
		FileTimeout: *timeout,
		MemLimit:    mem,
		WorkerExe:   exe,
		WorkerArgs:  nil,
		Stop:        stop,
		Kill:        kill,
		Notices:     notices,
		Observe:     ui.observe,
	})
	ui.done()
	if err != nil {
		var lockErr *workspace.LockError
		var fatal *indexer.FatalError
		var lost *indexer.ErrRootLost
		var fault *workspace.FaultError
		switch {
		case errors.As(err, &lockErr), errors.As(err, &fatal), errors.As(err, &lost), errors.As(err, &fault):
			// Already in the log; print the Japanese text alone.
			fmt.Fprintln(e.stderr, err.Error())
			return exitFatal
		}
		return e.fail(err)
	}
	if sum.Stopped {
		return exitStopped
	}
	return exitOK
}
