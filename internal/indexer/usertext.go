package indexer

import (
	"errors"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// UserText returns the Japanese text a user reads for err, the same in the
// CLI (which picks the exit code from it, cmd/fumibako report) and the web
// UI (end banner, folder edits): the message of a user error (lock held,
// workspace fault, ingest list unreadable, folder refused, settings broken or busy, a fatal run error, a lost root, a place
// name) — ok is false for an internal error, whose English
// chain users only see on request.
func UserText(err error) (text string, ok bool) {
	var (
		lockErr    *workspace.LockError
		faultErr   *workspace.FaultError
		settingErr *workspace.SettingsError
		listErr    *ingestlist.FormatError
		folderErr  *workspace.FolderError
		brokenErr  *workspace.BrokenSettingsError
		fatalErr   *FatalError
		lostErr    *ErrRootLost
		nameErr    *content.NameError
		busyErr    *workspace.SettingsBusyError
	)
	switch {
	case err == nil:
		return "", false
	case errors.As(err, &lockErr):
		return lockErr.Error(), true
	case errors.As(err, &faultErr):
		return faultErr.Error(), true
	case errors.As(err, &settingErr):
		return settingErr.Error(), true
	case errors.As(err, &listErr):
		return listErr.Error(), true
	case errors.As(err, &folderErr):
		return folderErr.Error(), true
	case errors.As(err, &brokenErr):
		return brokenErr.Error(), true
	case errors.As(err, &fatalErr):
		return fatalErr.Error(), true
	case errors.As(err, &lostErr):
		return lostErr.Error(), true
	case errors.As(err, &nameErr):
		return nameErr.Error(), true
	case errors.As(err, &busyErr):
		return busyErr.Error(), true
	}
	return "", false
}
