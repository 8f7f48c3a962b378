package watch

import (
	"fmt"
	"syscall"
	"testing"
)

// TestReasonOf: the watch limit (ENOSPC from inotify_add_watch, EMFILE for
// inotify instances) reads as the limit; other errors name themselves.
func TestReasonOf(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("add /x: %w", syscall.ENOSPC), ReasonLimit},
		{syscall.EMFILE, ReasonLimit},
		{syscall.EACCES, ReasonWatchErr + "（" + syscall.EACCES.Error() + "）"},
	} {
		if got := reasonOf(tt.err); got != tt.want {
			t.Errorf("reasonOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
