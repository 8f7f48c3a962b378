package indexer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

// RenameIndex gives an index a new name without re-ingesting anything
// (renameIndex, reference/gui.md §2.4): under the workspace lock, and the
// settings lock for the settings' read-modify-write
// (workspace.UpdateSettings), it renames store/content/<old>, rewrites the
// index-name prefix of the ingest list's rows and folder line, and saves
// the settings. broken is the notice of a settings file that was moved
// aside first.
func RenameIndex(ws *workspace.Workspace, oldName, newName string) (broken *workspace.BrokenSettingsError, err error) {
	lock, err := ws.Lock()
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	return ws.UpdateSettings(func(s *workspace.Settings) error {
		return renameIndex(ws, s, oldName, newName)
	})
}

// renameIndex is RenameIndex's work on the settings s, which the caller
// saves.
func renameIndex(ws *workspace.Workspace, s *workspace.Settings, oldName, newName string) error {
	root, _, ok := s.Root(oldName)
	if !ok {
		return s.RenameRoot(oldName, newName) // gives the not-found error
	}
	oldName = root.Name
	if err := s.RenameRoot(oldName, newName); err != nil {
		return err
	}
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		return err
	}
	src := filepath.Join(ws.ContentRoot(), oldName)
	dst := filepath.Join(ws.ContentRoot(), newName)
	if _, err := os.Stat(src); err == nil && !strings.EqualFold(src, dst) {
		if _, err := os.Stat(dst); err == nil {
			return fmt.Errorf("indexer: rename %s: %s already exists", src, dst)
		}
	}
	if _, err := os.Stat(src); err == nil {
		if err := workspace.Rename(src, dst); err != nil {
			return fmt.Errorf("indexer: rename %s: %w", src, err)
		}
		summary.Move(ws.ContentRoot(), oldName, newName)
	}
	// The moved index names itself and its root again (reference/gui.md
	// §2.4 renameIndex: rewrite source_folder.txt).
	if _, err := source.Write(ws.ContentRoot(), newName, root.Path); err != nil {
		return err
	}
	folders := l.Folders
	for i := range folders {
		if workspace.FoldKey(folders[i].Name) == workspace.FoldKey(oldName) {
			folders[i].Name = newName
		}
	}
	prefix := workspace.FoldKey(oldName + `\`)
	rows := l.Rows
	for i := range rows {
		if strings.HasPrefix(rows[i].Key(), prefix) {
			rows[i].RelPath = newName + rows[i].RelPath[len(oldName):]
		}
	}
	return ingestlist.WriteFile(ws.IngestList(), folders, rows)
}

// UsedIndexNames lists the indexes the workspace knows: the ingest list's
// folder lines (with their paths), legacy folders and row prefixes, and
// the folders under the content root. A new default name avoids them, and
// a root added again at a known path gets its name back
// (workspace.Settings.AddRoot).
func UsedIndexNames(ws *workspace.Workspace) []workspace.KnownIndex {
	var out []workspace.KnownIndex
	if l, err := ingestlist.ReadFile(ws.IngestList()); err == nil {
		for _, f := range l.Folders {
			out = append(out, workspace.KnownIndex{Name: f.Name, Path: f.Path})
		}
		for _, n := range l.LegacyFolders {
			out = append(out, workspace.KnownIndex{Name: n})
		}
		for _, r := range l.Rows {
			out = append(out, workspace.KnownIndex{Name: r.IndexName()})
		}
	}
	for _, n := range contentIndexes(ws) {
		out = append(out, workspace.KnownIndex{Name: n})
	}
	return out
}

// contentIndexes lists the index folders under the content root (not the
// leftovers of a swap or a deferred deletion).
func contentIndexes(ws *workspace.Workspace) []string {
	entries, _ := os.ReadDir(ws.ContentRoot())
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && workspace.TestPlainFolderName(n) && !strings.HasPrefix(n, ".old-") && !strings.HasPrefix(n, content.DeferredPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// RunStats are per-index numbers of the last run that the ingest list does
// not hold: work/store/run_stats.json, {"<index>": {"cloudOnly": N,
// "hiddenSheets": true}} (hiddenSheets: the root's setting its workbooks
// were last read with, hiddensheets.go; absent when off).
type RunStats map[string]IndexRunStats

// IndexRunStats are one index's numbers of the last crawl.
type IndexRunStats struct {
	CloudOnly    int  `json:"cloudOnly"`
	HiddenSheets bool `json:"hiddenSheets,omitempty"`
}

func runStatsPath(ws *workspace.Workspace) string {
	return ws.RunStats()
}

// ReadRunStats reads run_stats.json; a missing or broken file gives none.
func ReadRunStats(ws *workspace.Workspace) RunStats {
	data, err := os.ReadFile(runStatsPath(ws))
	if err != nil {
		return RunStats{}
	}
	var s RunStats
	if json.Unmarshal(data, &s) != nil {
		return RunStats{}
	}
	return s
}

func writeRunStats(ws *workspace.Workspace, s RunStats) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return errors.New("indexer: encode run stats")
	}
	data = append(data, '\n')
	if old, err := os.ReadFile(runStatsPath(ws)); err == nil && bytes.Equal(old, data) {
		return nil // unchanged: an unchanged rerun writes nothing (issue 21)
	}
	return workspace.WriteFileAtomic(runStatsPath(ws), data)
}
