package indexer

import (
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Launch is how a front end was started: the flags of index and watch, or
// the options of the web server that drives runs and auto-update. A zero
// field leaves the choice to the settings, then to the run's default.
type Launch struct {
	Workers     int
	FileTimeout time.Duration
	MemLimit    int64 // bytes per worker; 0 = the default share, <0 = none
	// WorkerExe, WorkerArgs and WorkerEnv start the workers
	// (Options.WorkerExe).
	WorkerExe  string
	WorkerArgs []string
	WorkerEnv  []string
}

// NewOptions is the one constructor of a run's options from how the front
// end was started and the settings, used by index, watch, the web runner
// and auto-update alike, so that a setting means the same everywhere: a
// launch value wins, then the settings' value (workers, fileTimeoutMinutes),
// then the run's default. The caller adds what belongs to its run (what
// to index, stop channels, the observer).
func NewOptions(ws *workspace.Workspace, s *workspace.Settings, l Launch) Options {
	o := Options{
		Workspace:   ws,
		Settings:    s,
		Body:        bodyindex.Store{},
		Workers:     l.Workers,
		FileTimeout: l.FileTimeout,
		MemLimit:    l.MemLimit,
		WorkerExe:   l.WorkerExe,
		WorkerArgs:  l.WorkerArgs,
		WorkerEnv:   l.WorkerEnv,
	}
	if s == nil {
		return o
	}
	if o.Workers == 0 {
		o.Workers = s.Workers
	}
	if o.FileTimeout == 0 && s.FileTimeoutMinutes > 0 {
		o.FileTimeout = time.Duration(s.FileTimeoutMinutes) * time.Minute
	}
	return o
}
