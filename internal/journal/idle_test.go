package journal_test

import (
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

// TestIdle: only the journal of a run that did nothing (版 回 書 終, the
// count that of the list) may be kept by a run that does nothing; every
// other journal has something recovery acts on, or does not match the list.
func TestIdle(t *testing.T) {
	tests := []struct {
		name    string
		journal string
		rows    int
		want    bool
	}{
		{"nothing done", text(head, run4, "書", "終"), 4, true},
		{"count of another list", text(head, run4, "書", "終"), 5, false},
		{"jobs started", text(head, run4, `始|営業\A.xlsx|1`, `出|営業`, "書", "終"), 4, false},
		{"folder carried", text(head, run4, `未|営業`, "書", "終"), 4, false},
		{"job carried", text(head, run4, `持|営業\A.xlsx|1`, "書", "終"), 4, false},
		{"rewrite cut", text(head, run4, "書"), 4, false},
		{"no end", text(head, run4), 4, false},
		{"a line skipped", text(head, run4, "謎|x", "書", "終"), 4, false},
		{"torn last line", text(head, run4, "書", "終") + "始\t営業", 4, false},
		{"another version", text("版|1", run4, "書", "終"), 4, false},
		{"missing", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustRead(t, tt.journal)
			if tt.journal == "" {
				l = &journal.Log{Missing: true}
			}
			if got := l.Idle(tt.rows); got != tt.want {
				t.Errorf("Idle(%d) = %v, want %v", tt.rows, got, tt.want)
			}
			// What Idle accepts, recovery has nothing to do for.
			if tt.want && !reflect.DeepEqual(l.Recover(nil), journal.Recovery{Readable: true}) {
				t.Errorf("Recover = %+v, want nothing to do", l.Recover(nil))
			}
		})
	}
}

// TestRunRows: the count of the last 回, which recovery reads the list's
// keys from.
func TestRunRows(t *testing.T) {
	tests := []struct {
		name    string
		journal string
		want    int
	}{
		{"one run", text(head, run4, `始|営業\A.xlsx|1`), 4},
		{"the last of two", text(head, run4, "回|2026/09/19 11:00:00|7", "書", "終"), 7},
		{"none", text(head, `始|営業\A.xlsx|1`), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustRead(t, tt.journal).RunRows(); got != tt.want {
				t.Errorf("RunRows = %d, want %d", got, tt.want)
			}
		})
	}
}
