package all_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestOOXMLCorpus reads every .docx .docm .pptx .pptm of the shared corpus
// (python-docx, python-pptx, tika): each must give places (or none, for a
// file without text) or fail with an *Error, without a panic or a hang.
func TestOOXMLCorpus(t *testing.T) {
	root := testutil.Corpus(t)
	var files []string
	for _, sub := range []string{"python-docx", "python-pptx", "tika"} {
		filepath.WalkDir(filepath.Join(root, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".docx", ".docm", ".pptx", ".pptm":
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		testutil.CorpusMissing(t, "no Word or PowerPoint files under %s", root)
	}
	var withPlaces, empty int
	failures := map[string][]string{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		done := make(chan struct{})
		var (
			res *extract.Result
			err error
		)
		go func() {
			defer close(done)
			res, err = extract.Extract(context.Background(), f, filepath.Base(f), extract.Options{Scratch: t.TempDir()})
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: extraction did not finish (hang)", rel)
		}
		var fe *extract.Error
		switch {
		case err == nil && len(res.Places) > 0:
			withPlaces++
			for _, p := range res.Places {
				for _, l := range p.Lines {
					if l == "" || strings.ContainsAny(l, "\r\n") {
						t.Errorf("%s: place %s has a bad line %q", rel, p.Name, l)
					}
				}
			}
		case err == nil:
			empty++
		case errors.As(err, &fe):
			if strings.Contains(fmt.Sprint(fe.Cause), "panic") {
				t.Errorf("%s: panicked: %v", rel, fe.Cause)
			}
			failures[fe.Msg] = append(failures[fe.Msg], rel)
		default:
			t.Errorf("%s: error is not an *extract.Error: %v", rel, err)
		}
	}
	t.Logf("corpus: %d Word/PowerPoint files: %d with places, %d without text, %d failed", len(files), withPlaces, empty, len(files)-withPlaces-empty)
	msgs := make([]string, 0, len(failures))
	for m := range failures {
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		t.Logf("  %d × %s: %s", len(failures[m]), m, strings.Join(failures[m], ", "))
	}
}
