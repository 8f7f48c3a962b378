package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The settings lock: one writer of settings.json at a time, across
// processes (issue 36). The CLI's folder commands, the web UI's edits and
// the recovery of a broken file all read, change and write settings.json
// under it, so no edit is lost to another made at the same moment. It is
// not the workspace lock: the web UI and the CLI edit folders while an
// indexing run holds that one. Readers do not take it; a reader that finds
// the file unreadable takes it before moving the file aside, and looks
// again first (settings.go).
//
// The lock is work/settings.lock, locked like work/lock (flock /
// LockFileEx on its first byte) and never removed, so two processes always
// lock the same file. A writer holds it for one read-modify-write, a few
// milliseconds; another waits for it, polling, at most settingsLockWait.
// On Windows, opening the lock file while another program (antivirus, a
// backup) holds it unshared is a sharing error that is waited out in the
// same budget.

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

// SettingsLockPath is work/settings.lock.
func (w *Workspace) SettingsLockPath() string { return filepath.Join(w.Work(), "settings.lock") }

// lockSettings takes the settings lock, waiting for it at most
// settingsLockWait.
func (w *Workspace) lockSettings() (*Lock, error) {
	path := w.SettingsLockPath()
	if err := os.MkdirAll(w.Work(), 0o755); err != nil {
		return nil, fmt.Errorf("workspace: create %s: %w", w.Work(), err)
	}
	start := time.Now()
	delay := time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		held := false
		if err == nil {
			held, err = tryLock(f)
			if err == nil && !held {
				return &Lock{f: f}, nil
			}
			f.Close()
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
