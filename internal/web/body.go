package web

import "github.com/fumibako/fumibako/internal/bodyindex"

// bodyIndex adapts package bodyindex to indexer.BodyIndex.
type bodyIndex struct{}

func (bodyIndex) Publish(dir string, removed []string) error { return bodyindex.Publish(dir, removed) }

func (bodyIndex) Files(dir string) (map[string]int, error) {
	files, err := bodyindex.Files(dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(files))
	for name, f := range files {
		out[name] = f.Places
	}
	return out, nil
}
