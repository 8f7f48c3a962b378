package summary_test

import (
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// The summary describes published folders: every test here, internal
// ones too, publishes them with package bodyindex's Publish.
func init() { summary.UsePublisher(bodyindex.Publish) }

// stage writes a per-file folder for name inside dir.
func stage(t testing.TB, dir, name string, places ...extract.Place) {
	t.Helper()
	if _, err := content.WriteFolder(filepath.Join(dir, name), places); err != nil {
		t.Fatal(err)
	}
}

func place(name string, lines ...string) extract.Place {
	return extract.Place{Name: name, Lines: lines}
}

// tempDir is a test folder whose mapped parts are released before it goes
// (Windows cannot delete a mapped file).
func tempDir(t testing.TB) string {
	d := t.TempDir()
	t.Cleanup(format.ReleaseMappings)
	return d
}
