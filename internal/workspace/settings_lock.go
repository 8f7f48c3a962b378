package workspace

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// The settings lock: one writer of settings.json at a time, across
// processes (issue 36). The CLI's folder commands, the web UI's edits and
// the recovery of a broken file all read, change and write settings.json
// under it, so no edit is lost to another made at the same moment. It is
// not the workspace lock: the web UI and the CLI edit folders while an
// indexing run holds that one. A reader that finds the file unreadable
// takes it before moving the file aside, and looks again first
// (settings.go).
//
// The lock is work/settings.lock, never removed, so that two processes
// always lock the same file. A writer holds it for one read-modify-write,
// a few milliseconds; another waits for it, polling, at most
// settingsLockWait, and then gives up with MsgSettingsBusy.
//
//   - Elsewhere than on Windows it is an exclusive flock (as work/lock),
//     taken by writers only: renaming a new file over one that a reader
//     has open is no error there, and the reader keeps the old bytes.
//   - On Windows a rename over a file that another process has open fails
//     (a sharing error), so readers would hold up, and when they read
//     without pause starve, the writers' renames. There readers lock too
//     (lock_windows.go): LockFileEx on byte 0, shared for a reader and
//     exclusive for a writer, behind a turnstile on byte 1 that a waiting
//     writer holds, so that new readers wait for it and the readers
//     already in drain; a reader takes the turnstile for a moment too, so
//     that writers in a row do not keep readers out. Opening the lock file while another program
//     (antivirus, a backup) holds it unshared is a sharing error, waited
//     out in the same budget.

// MsgSettingsBusy is the refusal when the settings lock stayed held for
// settingsLockWait.
const MsgSettingsBusy = "ほかの操作が設定ファイルを書き換えているため、設定を変更できませんでした。しばらくしてから、もう一度実行してください。"

// SettingsBusyError is a settings edit that gave up waiting for the
// settings lock. Error is MsgSettingsBusy; Unwrap gives the English cause.
type SettingsBusyError struct {
	Path  string
	Cause error
}

func (e *SettingsBusyError) Error() string { return MsgSettingsBusy }
func (e *SettingsBusyError) Unwrap() error { return e.Cause }

// settingsLockWait bounds how long an edit waits for the settings lock.
// A var: tests shorten it.
var settingsLockWait = 10 * time.Second

// settingsLockPoll is the longest sleep between two tries.
const settingsLockPoll = 20 * time.Millisecond

// lockSettings takes the settings lock for a writer, waiting for it at
// most settingsLockWait.
func (w *Workspace) lockSettings() (*Lock, error) { return w.lockSettingsFor(true) }

// rlockSettings takes the settings lock for a reader: nothing where
// readers do not lock (readersLock), else shared, waiting as a writer
// does. A reader of a workspace it cannot write (a lock file it cannot
// create) reads without the lock.
func (w *Workspace) rlockSettings() (*Lock, error) {
	if !readersLock {
		return &Lock{}, nil
	}
	l, err := w.lockSettingsFor(false)
	var busy *SettingsBusyError
	if err != nil && !errors.As(err, &busy) {
		return &Lock{}, nil
	}
	return l, err
}

// lockSettingsFor takes the settings lock, exclusive for a writer, shared
// for a reader.
func (w *Workspace) lockSettingsFor(write bool) (*Lock, error) {
	path := w.SettingsLockPath()
	if err := os.MkdirAll(w.Work(), 0o755); err != nil {
		return nil, fmt.Errorf("workspace: create %s: %w", w.Work(), err)
	}
	start := time.Now()
	delay := time.Millisecond
	var l settingsLocker
	defer func() { l.abandon() }() // a writer's turnstile, if it gives up
	for {
		var err error
		if l.f == nil {
			l.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		}
		if err == nil {
			var ok bool
			if ok, err = l.try(write); ok {
				f := l.f
				l.f = nil
				return &Lock{f: f}, nil
			}
		}
		if err != nil && !isSharingError(err) {
			return nil, fmt.Errorf("workspace: lock %s: %w", path, err)
		}
		if time.Since(start) >= settingsLockWait {
			if err == nil {
				err = errors.New("held by another process")
			}
			return nil, &SettingsBusyError{Path: path, Cause: fmt.Errorf("workspace: lock %s for %v: %w", path, settingsLockWait, err)}
		}
		time.Sleep(delay)
		delay = min(2*delay, settingsLockPoll)
	}
}

// UpdateSettings reads settings.json, lets edit change it and writes it
// back, all under the settings lock, so that edits made at the same time
// by other processes (the CLI, the web UI) are never lost. An error from
// edit is returned and nothing is written. A file that does not parse is
// moved aside and salvaged first, as LoadSettings does; broken then
// describes it (a notice for the user, not a failure).
//
// edit must not take the settings lock itself (LoadSettings may) nor wait
// for the workspace lock.
func (w *Workspace) UpdateSettings(edit func(*Settings) error) (broken *BrokenSettingsError, err error) {
	l, err := w.lockSettings()
	if err != nil {
		return nil, err
	}
	defer l.Release()
	s, broken, err := w.loadLocked()
	if err != nil {
		return nil, err
	}
	if err := edit(s); err != nil {
		return broken, err
	}
	return broken, w.saveLocked(s)
}
