package bodyindex

import (
	"github.com/fumibako/fumibako/internal/content"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
)

// Store is the body index as the coordinator uses it (indexer.BodyIndex):
// the package functions as methods, so callers pass Store{}.
type Store struct{}

// Publish calls Publish.
func (Store) Publish(dir string, removed []string) error { return Publish(dir, removed) }

// PublishTrash calls PublishTrash.
func (Store) PublishTrash(dir string, removed []string, trash *content.Trash) error {
	return PublishTrash(dir, removed, trash)
}

// PublishFresh calls PublishFresh.
func (Store) PublishFresh(dir string, removed []string, trash *content.Trash, fresh []Fresh) error {
	return PublishFresh(dir, removed, trash, fresh)
}

// Rebuild calls Rebuild.
func (Store) Rebuild(dir string) error { return Rebuild(dir) }

// Files returns the file names of dir's body index with their place counts.
func (Store) Files(dir string) (map[string]int, error) {
	files, err := format.Files(dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(files))
	for name, f := range files {
		out[name] = f.Places
	}
	return out, nil
}

// MarkChanging calls MarkChanging.
func (Store) MarkChanging(contentRoot, index string) error {
	return summary.MarkChanging(contentRoot, index)
}

// WriteSummary calls WriteSummary.
func (Store) WriteSummary(contentRoot, index string) error { return summary.Write(contentRoot, index) }
