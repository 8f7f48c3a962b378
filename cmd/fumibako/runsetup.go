package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// runDefaults fills the worker count and the per-file deadline that the
// command line left unset from the settings, for index and watch alike.
func runDefaults(s *workspace.Settings, workers *int, timeout *time.Duration) {
	if *workers == 0 {
		*workers = s.Workers
	}
	if *timeout == 0 && s.FileTimeoutMinutes > 0 {
		*timeout = time.Duration(s.FileTimeoutMinutes) * time.Minute
	}
}

// stopSignals turns the first Ctrl-C or SIGTERM into stop (dispatch ends,
// files in flight get their grace) and the second into kill (the grace is
// skipped). release stops listening.
func stopSignals() (stop, kill <-chan struct{}, release func()) {
	stopc, killc := make(chan struct{}), make(chan struct{})
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		close(stopc)
		<-sig
		close(killc)
	}()
	return stopc, killc, func() { signal.Stop(sig) }
}
