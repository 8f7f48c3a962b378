package indexer_test

import (
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestNewOptions pins the one rule every front end (index, watch, the web
// runner, auto-update) gets its run's options by: a launch value wins,
// then the settings', then the run's default (zero).
func TestNewOptions(t *testing.T) {
	for _, c := range []struct {
		name        string
		s           *workspace.Settings
		l           indexer.Launch
		workers     int
		fileTimeout time.Duration
	}{
		{"defaults", &workspace.Settings{}, indexer.Launch{}, 0, 0},
		{"settings", &workspace.Settings{Workers: 3, FileTimeoutMinutes: 7}, indexer.Launch{}, 3, 7 * time.Minute},
		{"flags win", &workspace.Settings{Workers: 3, FileTimeoutMinutes: 7}, indexer.Launch{Workers: 1, FileTimeout: time.Second}, 1, time.Second},
		{"no settings", nil, indexer.Launch{Workers: 2}, 2, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := &workspace.Workspace{Root: t.TempDir()}
			c.l.WorkerExe, c.l.MemLimit, c.l.WorkerArgs = "/bin/fumibako", -1, []string{"-x"}
			o := indexer.NewOptions(ws, c.s, c.l)
			if o.Workers != c.workers || o.FileTimeout != c.fileTimeout {
				t.Errorf("workers %d, timeout %v; want %d, %v", o.Workers, o.FileTimeout, c.workers, c.fileTimeout)
			}
			if o.Workspace != ws || o.Settings != c.s || o.Body == nil || o.WorkerExe != "/bin/fumibako" || o.MemLimit != -1 || len(o.WorkerArgs) != 1 {
				t.Errorf("options not carried over: %+v", o)
			}
		})
	}
}
