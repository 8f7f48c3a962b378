package pdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// FuzzRead feeds arbitrary bytes to the reader: it must return a result or
// an error (a user message for a bad file, never a crash), and every line
// it returns must be one non-empty line. The seeds are the fixtures but
// the form-XObject bomb, which takes the engine about 10 s to refuse, the
// time after which the fuzzing engine takes a worker for hung (its own
// test, TestIssue36XObjectBomb, reads it).
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.pdf"))
	for _, s := range seeds {
		if filepath.Base(s) == "xobject-bomb.pdf" {
			continue
		}
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "f.pdf")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := read(context.Background(), path, extract.Options{})
		if err != nil {
			var xerr *extract.Error
			if !errors.As(err, &xerr) {
				t.Fatalf("error without a user message: %v", err)
			}
			return
		}
		for _, p := range r.Places {
			for _, l := range p.Lines {
				if l == "" || strings.ContainsAny(l, "\r\n") {
					t.Fatalf("place %s: bad line %q", p.Name, l)
				}
			}
		}
	})
}
