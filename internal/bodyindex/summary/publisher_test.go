package summary_test

import (
	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
)

// The summary describes published folders: every test here, internal
// ones too, publishes them with package bodyindex's Publish.
func init() { summary.UsePublisher(bodyindex.Publish) }
