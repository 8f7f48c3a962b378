package source

import (
	"os"
	"path/filepath"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Folder is where an index's files are opened from.
type Folder struct {
	Index string // the index name, as the settings or the content folder spell it
	// Path is the source folder, "" when nothing records one.
	Path string
	// Received: the index is no crawl root here (imported, or its
	// registration lost): its files come from someone else's folder.
	Received bool
	// Confirmed: a crawl root, or a source folder the user confirmed or
	// picked (indexSources with confirmed).
	Confirmed bool
	// Network: Path is on another computer (UNC or a mapped drive); the
	// confirmation warns, since Windows may send credentials there.
	Network bool
}

// NeedsConfirm reports whether the user must confirm the folder before
// anything in it is touched (dialog 元のフォルダを確かめてください).
func (f Folder) NeedsConfirm() bool { return f.Received && !f.Confirmed }

// Lookup finds the source folder of an index from three places, later
// ones overriding earlier ones (reference/search.md §9): the index's
// source_folder.txt (which travels with a copied or exported index), the
// crawl root of that name (targetFolders), and indexSources. (The
// reference's second place, the ingest list's default root, has no
// counterpart: fumibako has no default root.) ok is false for an index
// that none of them knows.
func Lookup(contentRoot string, s *workspace.Settings, index string) (Folder, bool) {
	f := Folder{Index: index, Received: true}
	if p, ok := Read(contentRoot, index); ok {
		f.Path = p
	}
	if r, _, ok := s.Root(index); ok {
		f.Index, f.Path, f.Received, f.Confirmed = r.Name, r.Path, false, true
	}
	if e, ok := s.Source(index); ok {
		f.Path = e.Path
		f.Confirmed = f.Confirmed || e.Confirmed
	}
	if f.Path == "" {
		return f, false
	}
	f.Network = workspace.IsNetworkPath(f.Path)
	return f, true
}

// Known reports whether the workspace has an index of that name: a crawl
// root, or a folder under the content root (a received index).
func Known(contentRoot string, s *workspace.Settings, name string) bool {
	if _, _, ok := s.Root(name); ok {
		return true
	}
	if !workspace.TestPlainFolderName(name) {
		return false
	}
	st, err := os.Stat(filepath.Join(contentRoot, name))
	return err == nil && st.IsDir()
}

// Probe tells whether a folder answers: ok when it exists, answered false
// when it gave no answer within wait (a network share that hangs).
type Probe func(path string, wait time.Duration) (ok, answered bool)

// UnreachableFolder returns the network folder of rel's index when it does
// not answer probe within wait (reference/search.md §9: a hit is not
// opened through a share that hangs), and "" otherwise: a local folder, one
// still to be confirmed, or a path Resolve refuses are Resolve's to tell.
func UnreachableFolder(contentRoot string, s *workspace.Settings, rel string, wait time.Duration, probe Probe) string {
	index, _ := ingestlist.SplitRelPath(rel)
	f, ok := Lookup(contentRoot, s, index)
	if !ok || !f.Network || f.NeedsConfirm() || !ingestlist.ValidRelPath(rel) {
		return ""
	}
	if _, answered := probe(f.Path, wait); !answered {
		return f.Path
	}
	return ""
}

// OpenWait bounds how long opening a hit waits for its network folder.
const OpenWait = 15 * time.Second
