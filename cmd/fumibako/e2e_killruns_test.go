package main

import (
	"math/rand"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// killPlan says how killRuns kills indexing runs: at most runs starts and
// kills kills; each run is SIGKILLed minDelay + rand(maxDelay) ms after its
// start. A run that finishes first shrinks maxDelay by a third (not below
// floor), so a fast machine still gets its kills mid-run, and calls touch,
// which gives the next run work again. beforeKill, when set, runs just
// before a kill (it may kill the run's workers first), afterKill after it.
type killPlan struct {
	runs, kills               int
	minDelay, maxDelay, floor int
	touch                     func()
	beforeKill                func(*exec.Cmd)
	afterKill                 func()
}

// killRuns starts `index --workers 2` again and again as plan says and
// returns how many runs it killed and how many finished first.
func killRuns(t *testing.T, f *fixture, rng *rand.Rand, plan killPlan) (kills, finished int) {
	t.Helper()
	maxDelay := plan.maxDelay
	for i := 0; i < plan.runs && kills < plan.kills; i++ {
		c := f.cmd("index", "--workers", "2")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- c.Wait() }()
		select {
		case <-exited: // finished before the kill: give the next run work again
			finished++
			maxDelay = max(plan.floor, maxDelay*2/3)
			plan.touch()
		case <-time.After(time.Duration(plan.minDelay+rng.Intn(maxDelay)) * time.Millisecond):
			if plan.beforeKill != nil {
				plan.beforeKill(c)
			}
			c.Process.Signal(syscall.SIGKILL)
			<-exited
			kills++
			if plan.afterKill != nil {
				plan.afterKill()
			}
		}
	}
	t.Logf("%d kills, %d runs that finished first", kills, finished)
	return kills, finished
}
