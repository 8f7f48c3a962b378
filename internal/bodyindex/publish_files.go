package bodyindex

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The files a publish writes and deletes in a folder: parts, the manifest
// (the commit), stale parts and leftovers.

// writePart writes a part under its content name unless a complete one is
// there already (same name, same size: same bytes).
func writePart(dir string, p format.BuiltPart) error {
	path := filepath.Join(dir, format.PartName(p.ID))
	if st, err := os.Stat(path); err == nil && st.Size() == int64(len(p.Data)) {
		return nil
	}
	return writePartFile(path, p.Data)
}

// writeNewPart writes a part into a folder where none can be yet.
func writeNewPart(dir string, p format.BuiltPart) error {
	return writePartFile(filepath.Join(dir, format.PartName(p.ID)), p.Data)
}

// writePartFile writes a part through the workspace's atomic write; the
// caller fsyncs the folder once for all its parts.
func writePartFile(path string, data []byte) error {
	if err := beforeCommit(path); err != nil {
		return err
	}
	return workspace.WriteFileAtomicNoDirSync(path, data)
}

// beforeCommit is a fault seam: tests stop a publish just before a file
// (the manifest: the commit) is written into place.
var beforeCommit = func(final string) error { return nil }

// commitFile writes path atomically and fsyncs its folder.
func commitFile(path string, data []byte) error {
	if err := beforeCommit(path); err != nil {
		return err
	}
	return workspace.WriteFileAtomic(path, data)
}

// removeStale deletes the parts and temporary files the manifest does not
// list; a part that a search has mapped (Windows) is deferred
// (format.RemoveOrDefer). Files deferred before are removed now if they can be.
func removeStale(dir string, keep map[string]bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case format.IsDeferred(n):
			format.RemoveFile(filepath.Join(dir, n)) // unmapped by now, or left for later
		case strings.HasPrefix(n, format.ManifestName) && n != format.ManifestName && !keep[n]:
			format.RemoveOrDefer(filepath.Join(dir, n))
		}
	}
}

// RemoveLeftovers deletes what killed publishes of dir left beside its
// body index (the manifest's temporary file, parts the manifest does not
// list) without publishing: for a folder the coordinator set aside, which
// no publish tidies any more (issue 36). A folder whose manifest cannot be
// read is left as it is: which parts it holds is not known.
func RemoveLeftovers(dir string) {
	m, err := format.ReadManifest(dir)
	if err != nil {
		return
	}
	keep := map[string]bool{}
	if m != nil {
		for _, r := range m.Parts {
			keep[format.PartName(r.ID)] = true
		}
	}
	removeStale(dir, keep)
}
