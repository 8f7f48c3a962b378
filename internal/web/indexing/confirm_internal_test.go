package indexing

import (
	"testing"
	"time"
)

// TestIssue32ConfirmWaitTimesOut: a confirmation nobody answers declines
// the run as timed out (the indexer logs its own line for it), while a
// stop declines it plainly.
func TestIssue32ConfirmWaitTimesOut(t *testing.T) {
	defer func(d time.Duration) { confirmWait = d }(confirmWait)
	confirmWait = 20 * time.Millisecond
	rn := &Runner{changed: make(chan struct{})}
	if a := rn.confirm(&runState{stopCh: make(chan struct{})}, nil); a.Proceed || !a.TimedOut {
		t.Errorf("confirm with nobody answering = %+v, want timed out", a)
	}
	stopped := make(chan struct{})
	close(stopped)
	confirmWait = time.Minute
	if a := rn.confirm(&runState{stopCh: stopped}, nil); a.Proceed || a.TimedOut {
		t.Errorf("confirm stopped = %+v, want declined", a)
	}
}
