package main

import (
	"os"
	"os/signal"
	"syscall"
)

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
