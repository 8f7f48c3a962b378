package workspace

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// MsgLocked is the seed's message for a second indexing run
// (reference/indexing.md §17.1).
const MsgLocked = "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。"

// ErrLocked is returned by Lock when another process holds the workspace
// lock. Its text is the user-facing Japanese message.
var ErrLocked = errors.New(MsgLocked)

// LockError is the typed error for a held lock: Error is the seed's Japanese
// text, Unwrap gives ErrLocked.
type LockError struct{ Path string }

func (e *LockError) Error() string { return MsgLocked }
func (e *LockError) Unwrap() error { return ErrLocked }

// Lock is the held workspace lock. The OS releases it when the process dies,
// so a killed run never leaves a stale lock behind.
type Lock struct {
	f *os.File
}

// Lock takes the workspace lock without waiting. A held lock gives a
// *LockError.
func (w *Workspace) Lock() (*Lock, error) {
	if err := os.MkdirAll(w.Work(), 0o755); err != nil {
		return nil, fmt.Errorf("workspace: create %s: %w", w.Work(), err)
	}
	f, err := os.OpenFile(w.LockPath(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("workspace: open lock %s: %w", w.LockPath(), err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("workspace: lock %s: %w", w.LockPath(), err)
	}
	if held {
		f.Close()
		return nil, &LockError{Path: w.LockPath()}
	}
	return &Lock{f: f}, nil
}

// IsLocked reports whether some process holds the lock now (used by status
// and the web UI to show that a run is going on).
func (w *Workspace) IsLocked() bool {
	l, err := w.Lock()
	if err != nil {
		return errors.Is(err, ErrLocked)
	}
	l.Release()
	return false
}

// Release frees the lock.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	unlock(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}

// LockFile takes an exclusive lock on the file at path (created if
// missing), waiting while another process holds it, polling every poll,
// for at most wait; after that it gives up with ErrLocked. It is the
// workspace lock's mechanism for locks outside the workspace (the PDF
// engine's compiled-code cache: one worker compiles while the others wait,
// issue 33). The OS releases it when the process dies.
func LockFile(path string, poll, wait time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("workspace: open lock %s: %w", path, err)
	}
	until := time.Now().Add(wait)
	for {
		held, err := tryLock(f)
		switch {
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("workspace: lock %s: %w", path, err)
		case !held:
			return &Lock{f: f}, nil
		case time.Now().After(until):
			f.Close()
			return nil, &LockError{Path: path}
		}
		time.Sleep(poll)
	}
}
