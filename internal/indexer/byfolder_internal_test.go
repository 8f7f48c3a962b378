package indexer

import (
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/plan"
)

// TestByFolder: the targets come folder by folder, each folder where its
// first file was, the files of a folder in their order; a folder differing
// in case only is the same folder.
func TestByFolder(t *testing.T) {
	in := []string{`r\a.txt`, `r\b\x.txt`, `r\c.txt`, `r\b\y.txt`, `r\d\z.txt`, `r\e.txt`, `r\B\w.txt`, `s\a.txt`}
	want := []string{`r\a.txt`, `r\c.txt`, `r\e.txt`, `r\b\x.txt`, `r\b\y.txt`, `r\B\w.txt`, `r\d\z.txt`, `s\a.txt`}
	var targets []plan.Target
	for _, rel := range in {
		targets = append(targets, plan.Target{File: crawl.File{RelPath: rel}})
	}
	var got []string
	for _, t := range byFolder(targets) {
		got = append(got, t.File.RelPath)
	}
	if !slices.Equal(got, want) {
		t.Errorf("byFolder:\n%q\nwant\n%q", got, want)
	}
	if len(byFolder(nil)) != 0 {
		t.Error("byFolder(nil) is not empty")
	}
}
