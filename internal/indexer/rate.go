package indexer

import (
	"math"
	"time"
)

// Rate is the smoothed speed of a run and the time left, computed once for
// the terminal's status line and the web UI's banner (issue 13, issue 17).
//
// Workers finish files in bursts (a pipe of several files per worker, big
// and small files mixed), so the speed over the last second swings by a
// factor of four. Rate measures from the first finished file on
// (reference/gui.md §3.3) and keeps an exponentially weighted moving
// average of the speed over windows of at least rateWindow, with a time
// constant of rateTau: a lasting change of speed moves the estimate most of
// the way within a minute, a burst does not. The zero value is ready to use; it is
// not safe for concurrent use.
type Rate struct {
	started   bool
	firstAt   time.Time // when the first file finished
	firstDone int
	lastAt    time.Time // the current window's start
	lastDone  int
	perSec    float64 // smoothed files per second; 0 until known
}

const (
	rateWindow = time.Second      // shortest window a sample covers
	rateTau    = 20 * time.Second // time constant of the moving average
)

// Observe records that done files are finished at now.
func (r *Rate) Observe(now time.Time, done int) {
	if !r.started {
		if done <= 0 {
			return
		}
		r.started = true
		r.firstAt, r.firstDone = now, done
		r.lastAt, r.lastDone = now, done
		return
	}
	dt := now.Sub(r.lastAt)
	if dt < rateWindow {
		return
	}
	sample := float64(done-r.lastDone) / dt.Seconds()
	if r.perSec == 0 {
		// The first estimate is the average since the first file.
		r.perSec = float64(done-r.firstDone) / now.Sub(r.firstAt).Seconds()
	} else {
		alpha := 1 - math.Exp(-dt.Seconds()/rateTau.Seconds())
		r.perSec += alpha * (sample - r.perSec)
	}
	r.lastAt, r.lastDone = now, done
}

// PerSecond is the smoothed number of files finished per second, 0 while
// not yet known (less than a second after the first finished file).
func (r *Rate) PerSecond() float64 { return r.perSec }

// Left estimates the time the remaining files take; ok is false while the
// rate is not known.
func (r *Rate) Left(remaining int) (d time.Duration, ok bool) {
	if r.perSec <= 0 || remaining < 0 {
		return 0, false
	}
	return time.Duration(float64(remaining) / r.perSec * float64(time.Second)), true
}
