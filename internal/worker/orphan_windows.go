//go:build windows

package worker

import (
	"errors"

	"golang.org/x/sys/windows"
)

// watchParent calls gone once the process parent has ended: the worker
// opens its process (SYNCHRONIZE) and waits on the handle, whatever the
// Job Object does. A parent that is gone already, or whose id now names a
// process started after this one (the id was reused), counts as gone; one
// that cannot be opened otherwise is not watched.
func watchParent(parent int, gone func()) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(parent))
	if err != nil {
		if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
			go gone() // no such process
		}
		return
	}
	if startedAfterMe(h) {
		windows.CloseHandle(h)
		go gone()
		return
	}
	go func() {
		defer windows.CloseHandle(h)
		if ev, err := windows.WaitForSingleObject(h, windows.INFINITE); err == nil && ev == windows.WAIT_OBJECT_0 {
			gone()
		}
	}()
}

// startedAfterMe reports whether the process h was created after this one
// (so it cannot be its parent).
func startedAfterMe(h windows.Handle) bool {
	var theirs, mine, exit, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &theirs, &exit, &kernel, &user) != nil ||
		windows.GetProcessTimes(windows.CurrentProcess(), &mine, &exit, &kernel, &user) != nil {
		return false
	}
	return theirs.Nanoseconds() > mine.Nanoseconds()
}
