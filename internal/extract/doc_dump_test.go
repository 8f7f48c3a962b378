package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocPptDump prints what the native readers and LibreOffice's
// conversion give for the files named in FUMIBAKO_DUMP (a path list), for
// looking at differences by hand:
//
//	FUMIBAKO_DUMP=a.doc:b.ppt go test ./internal/extract -run TestDocPptDump -v
func TestDocPptDump(t *testing.T) {
	list := os.Getenv("FUMIBAKO_DUMP")
	if list == "" {
		t.Skip("FUMIBAKO_DUMP not set")
	}
	for _, p := range filepath.SplitList(list) {
		var read Reader
		switch strings.ToLower(filepath.Ext(p)) {
		case ".doc":
			read = readDocNative
		case ".ppt":
			read = readPptNative
		default:
			continue
		}
		res, err := read(context.Background(), p, Options{Scratch: t.TempDir()})
		t.Logf("== native %s: err=%v", p, err)
		if res != nil {
			for _, pl := range res.Places {
				t.Logf("  [%s]", pl.Name)
				for _, l := range pl.Lines {
					t.Logf("    %q", l)
				}
			}
		}
	}
}
