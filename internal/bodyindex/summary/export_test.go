package summary

import (
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
)

// UsePublisher gives this package's internal tests package bodyindex's
// Publish, which they cannot import (bodyindex imports summary): the
// external test package passes it in its init (publisher_test.go), and
// the tests build their indexes with it as the indexer does.
func UsePublisher(p func(dir string, removed []string) error) { publish = p }

// publish is package bodyindex's Publish (UsePublisher).
var publish func(dir string, removed []string) error

// smallParts shrinks the format's sizes (indextest.SmallParts) and the
// summary's groups so that a few lines exercise every boundary.
func smallParts(t testing.TB) {
	t.Helper()
	indextest.SmallParts(t)
	gn, gx := groupMin, groupMax
	groupMin, groupMax = 1500, 3000
	t.Cleanup(func() { groupMin, groupMax = gn, gx })
}
