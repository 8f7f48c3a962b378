package workspace

import (
	"errors"
	"fmt"
	"os"
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
