//go:build windows

package workspace

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive LockFileEx lock on the first byte.
func tryLock(f *os.File) (held bool, err error) {
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}

func unlock(f *os.File) {
	ol := new(windows.Overlapped)
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}

// readersLock is true: a rename over a file that another process has open
// fails, so readers of settings.json lock it shared while they read.
const readersLock = true

// Bytes of the settings lock file (settings_lock.go).
const (
	settingsData      = 0 // shared for a reader, exclusive for a writer
	settingsTurnstile = 1 // held by a writer waiting for the readers to drain
)

// settingsLocker takes the settings lock: a writer first the turnstile,
// which it keeps across tries (new readers wait), then the data byte
// exclusive, then lets the turnstile go; a reader passes the turnstile
// (taken and at once let go) and takes the data byte shared. Readers and
// writers alike take the turnstile exclusive, so that neither a stream of
// readers nor one of writers keeps the other out for long.
type settingsLocker struct {
	f         *os.File
	turnstile bool // this writer holds the turnstile
}

// lockByte locks one byte of f without waiting; held reports that another
// handle holds it.
func lockByte(f *os.File, off uint32, exclusive bool) (held bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := &windows.Overlapped{Offset: off}
	err = windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}

func unlockByte(f *os.File, off uint32) {
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &windows.Overlapped{Offset: off})
}

// try takes the lock without waiting; false while others hold it.
func (l *settingsLocker) try(write bool) (bool, error) {
	if !l.turnstile {
		held, err := lockByte(l.f, settingsTurnstile, true)
		if held || err != nil {
			return false, err
		}
		l.turnstile = write
		if !write {
			defer unlockByte(l.f, settingsTurnstile)
		}
	}
	held, err := lockByte(l.f, settingsData, write)
	if held || err != nil {
		return false, err
	}
	if l.turnstile {
		unlockByte(l.f, settingsTurnstile)
		l.turnstile = false
	}
	return true, nil
}

// abandon lets the turnstile go and closes the lock file of an attempt
// that gave up.
func (l *settingsLocker) abandon() {
	if l.f == nil {
		return
	}
	if l.turnstile {
		unlockByte(l.f, settingsTurnstile)
	}
	l.f.Close()
}
