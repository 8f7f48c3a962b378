package share

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Recover finishes an import that was killed after its commit point and
// removes the staging folders that killed imports left (doc.go). The
// caller holds the workspace lock: the indexer calls it at the start of
// each run, before it reads the ingest list, and Import before it begins.
// log, if not nil, gets a line for what it did.
func Recover(ws *workspace.Workspace, log func(string)) error {
	say := func(format string, a ...any) {
		if log != nil {
			log(fmt.Sprintf(format, a...))
		}
	}
	data, err := os.ReadFile(PendingPath(ws))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("share: read %s: %w", PendingPath(ws), err)
	default:
		var p pending
		if json.Unmarshal(data, &p) != nil || !workspace.TestStoredIndexName(p.Name) || p.Stage == "" ||
			filepath.Dir(filepath.Clean(p.Stage)) != "tmp" {
			if _, err := workspace.MoveAside(PendingPath(ws)); err != nil {
				return err
			}
			say(MsgManifestUnknown, PendingPath(ws))
			break
		}
		if err := finish(ws, p); err != nil {
			// The cause reaches the user through the error (the one
			// error → message map); the log line says what failed.
			say(MsgRecoverFailed, p.Name)
			return err
		}
		say(MsgRecovered, p.Name)
	}
	// A kill while the pending file was written leaves its temporary
	// file: the import had not reached its commit point.
	workspace.Remove(PendingPath(ws) + ".tmp")
	left := stagedNames(ws)
	for _, n := range left {
		removeStage(filepath.Join(ws.TmpRoot(), n))
	}
	if len(left) > 0 {
		say(MsgStagingRemoved)
	}
	return nil
}

// finish runs the steps after the commit point (doc.go, 4–7), each of
// which may have run before: a recovery runs them all again.
func finish(ws *workspace.Workspace, p pending) error {
	croot := ws.ContentRoot()
	stage := filepath.Join(ws.Work(), p.Stage)
	staged := filepath.Join(stage, "index")
	if _, err := os.Stat(staged); err == nil {
		if old, ok := findIndexDir(croot, p.Name); ok {
			if err := workspace.Rename(filepath.Join(croot, old), filepath.Join(stage, "old")); err != nil {
				return fault(err)
			}
			crashPoint("import-after-move-old")
		}
		if err := workspace.Rename(staged, filepath.Join(croot, p.Name)); err != nil {
			return fault(err)
		}
		if err := workspace.SyncDir(croot); err != nil {
			return fault(err)
		}
		crashPoint("import-after-rename")
	}
	if err := placeSummary(ws, p, stage); err != nil {
		return err
	}
	crashPoint("import-after-summary")
	if err := appendRows(ws, p.Name, filepath.Join(stage, "rows.tsv")); err != nil {
		return err
	}
	crashPoint("import-after-rows")
	if _, err := ws.UpdateSettings(func(s *workspace.Settings) error {
		k := workspace.FoldKey(p.Name)
		drop := func(n string) bool {
			return workspace.FoldKey(n) == k || p.Replace != "" && workspace.FoldKey(n) == workspace.FoldKey(p.Replace)
		}
		s.Removed = slices.DeleteFunc(s.Removed, func(r workspace.Root) bool { return drop(r.Name) })
		s.IndexSources = slices.DeleteFunc(s.IndexSources, func(x workspace.IndexSource) bool { return drop(x.Name) })
		s.IndexSources = append(s.IndexSources, workspace.IndexSource{Name: p.Name, Path: p.SourceFolder})
		return nil
	}); err != nil {
		return err
	}
	crashPoint("import-after-settings")
	if err := workspace.Remove(PendingPath(ws)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fault(err)
	}
	workspace.SyncDir(ws.Store())
	removeStage(stage)
	return nil
}

// placeSummary puts the staged summary beside the index folder, or, for
// a zip without one, removes the summary of the index it replaced; and
// drops a changing marker the replaced index left (changing.go).
func placeSummary(ws *workspace.Workspace, p pending, stage string) error {
	croot := ws.ContentRoot()
	// The replaced index's summary under its own spelling of the name
	// goes before the new one is put in place: on Windows both names are
	// one file, so removing it afterwards would remove the new one.
	dropOld := func() {
		if p.Replace != "" && p.Replace != p.Name {
			summary.Remove(croot, p.Replace)
		}
	}
	staged := filepath.Join(stage, SummaryEntry)
	switch _, err := os.Stat(staged); {
	case err == nil:
		dropOld()
		if err := workspace.Rename(staged, summary.Path(croot, p.Name)); err != nil {
			return fault(err)
		}
	case !p.Summary:
		dropOld()
		if err := summary.Remove(croot, p.Name); err != nil {
			return fault(err)
		}
	}
	if err := workspace.Remove(summary.ChangingPath(croot, p.Name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fault(err)
	}
	return nil
}

// appendRows appends the staged rows to the ingest list, after dropping
// the rows the list has of the name already (an overwritten index, or
// rows an interrupted finish appended).
func appendRows(ws *workspace.Workspace, name, staged string) error {
	sl, err := ingestlist.ReadFile(staged)
	if err != nil {
		return err
	}
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		return err
	}
	k := workspace.FoldKey(name)
	mine := func(r ingestlist.Row) bool { return workspace.FoldKey(r.IndexName()) == k }
	_, statErr := os.Stat(ws.IngestList())
	if slices.ContainsFunc(l.Rows, mine) || errors.Is(statErr, os.ErrNotExist) {
		if err := ingestlist.WriteFile(ws.IngestList(), l.Folders, slices.DeleteFunc(l.Rows, mine)); err != nil {
			return fault(err)
		}
	}
	ap, err := ingestlist.OpenAppender(ws.IngestList())
	if err != nil {
		return fault(err)
	}
	for _, r := range sl.Rows {
		if err := ap.AppendUnsynced(r); err != nil {
			ap.Close()
			return fault(err)
		}
	}
	if err := ap.Sync(); err != nil {
		ap.Close()
		return fault(err)
	}
	return ap.Close()
}

// removeStage removes a staging folder; an index it holds (one that was
// overwritten) goes through the body index's removal, which defers what a
// search holds open on Windows.
func removeStage(dir string) {
	if old := filepath.Join(dir, "old"); dirExists(old) {
		format.RemoveIndexTree(old)
	}
	workspace.RemoveAll(dir)
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
