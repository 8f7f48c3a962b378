package extract_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestOOXMLDump prints what Extract makes of the files named in
// $FUMIBAKO_EXTRACT_DUMP (separated by the OS list separator), for
// looking at real documents: go test -run TestOOXMLDump -v.
func TestOOXMLDump(t *testing.T) {
	list := os.Getenv("FUMIBAKO_EXTRACT_DUMP")
	if list == "" {
		t.Skip("set FUMIBAKO_EXTRACT_DUMP to a list of files to print")
	}
	for _, f := range filepath.SplitList(list) {
		res, err := extract.Extract(context.Background(), f, filepath.Base(f), extract.Options{Scratch: t.TempDir()})
		t.Logf("##### %s\n%s", f, strings.TrimSpace(renderResult(res, err)))
	}
}
