package watch

import (
	"encoding/json"
	"os"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// What the watcher is doing (Status.Doing).
const (
	DoingWait  = "変更を待っています"
	DoingRun   = "変更を取り込んでいます"
	DoingFull  = "すべてのフォルダを調べています"
	DoingStart = "監視を始めています"
)

// Reasons a root falls back to rescans (Rescan.Reason, logged with the root).
const (
	ReasonNetwork  = "ネットワーク上のフォルダのため、変更の通知を使えません"
	ReasonLimit    = "監視できるフォルダ数の上限に達しました（Linux: fs.inotify.max_user_watches）"
	ReasonOverflow = "変更の通知が多すぎて取りこぼしました"
	ReasonMissing  = "フォルダが見つかりません（戻ったら監視を再開します）"
	ReasonNoEvents = "変更の通知を使えません"
	ReasonWatchErr = "フォルダを監視できません"
)

// Log lines of the watcher (to Options.Logf and the next run's log).
const (
	msgRescanMode   = "「%s」 %s: %s。%s ごとに調べ直します。"
	msgBackToEvents = "「%s」 %s: 変更の通知による監視に戻りました。"
	msgWatching     = "%d 件のインデックスの元のフォルダを監視しています（フォルダ %d 個）。"
)

// Rescan is a root in rescan mode.
type Rescan struct {
	Name   string    `json:"name"`
	Path   string    `json:"path"`
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
}

// Status is the watcher's state, written to work/watch.json and given to
// Options.Observe.
type Status struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	Doing   string    `json:"doing"`
	// LastChange is the last path an event named that a run picked up
	// (`<index>\<path>`), and when that run ended.
	LastChange   string    `json:"lastChange,omitempty"`
	LastChangeAt time.Time `json:"lastChangeAt,omitzero"`
	LastFull     time.Time `json:"lastFull,omitzero"`
	Runs         int       `json:"runs"`
	Rescan       []Rescan  `json:"rescan,omitempty"`
	LastError    string    `json:"lastError,omitempty"`
}

// StatePath is the watcher's state file.
func StatePath(ws *workspace.Workspace) string { return ws.WatchState() }

// ReadStatus returns the state of the watcher that holds the workspace
// lock now; ok is false when none does (no state file, or a file left by a
// killed watcher: the lock is free).
func ReadStatus(ws *workspace.Workspace) (st Status, ok bool) {
	data, err := os.ReadFile(StatePath(ws))
	if err != nil || json.Unmarshal(data, &st) != nil {
		return Status{}, false
	}
	if !ws.IsLocked() {
		return Status{}, false
	}
	return st, true
}

func writeStatus(ws *workspace.Workspace, st Status) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return workspace.WriteFileAtomicNoDirSync(StatePath(ws), append(data, '\n'))
}

// Indexing reports whether an indexing run is going on now: the lock is
// held, and not by a watcher that is only waiting for changes (search
// then reads a finished index).
func Indexing(ws *workspace.Workspace) bool {
	if st, ok := ReadStatus(ws); ok {
		return st.Doing != DoingWait
	}
	return ws.IsLocked()
}
