package bodyindex

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// TestPublishLeavesNothingMapped: a publish that read the old index (some
// parts reused, some encoded again) leaves none of the folder's parts
// mapped, but those a search holds (issue 21: the coordinator kept every
// part it had read mapped to the end of the run); the folder still reads
// whole afterwards.
func TestPublishLeavesNothingMapped(t *testing.T) {
	smallParts(t)
	tests := []struct {
		name   string
		search bool // a search holds the folder open across the publish
	}{
		{name: "no search"},
		{name: "a search holds the old parts", search: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tempDir(t)
			write := func(name, text string) {
				t.Helper()
				lines := []string{}
				for i := range 20 {
					lines = append(lines, fmt.Sprintf("%s %s %d", name, text, i))
				}
				if _, err := content.WriteFolder(filepath.Join(dir, name), []extract.Place{{Name: "本文", Lines: lines}}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 8 {
				write(fmt.Sprintf("f%d.txt", i), "first")
			}
			if err := Publish(dir, nil); err != nil {
				t.Fatal(err)
			}
			var held *Folder
			if tt.search {
				f, err := OpenFolder(dir)
				if err != nil {
					t.Fatal(err)
				}
				held = f
			}
			write("f7.txt", "second") // the last chunk is encoded again, the others reused
			if err := Publish(dir, nil); err != nil {
				t.Fatal(err)
			}
			want := 0
			if held != nil {
				// The search's mappings of parts the new index still lists
				// stay cached for later searches (the others are unmapped
				// when it closes).
				m, err := readManifest(dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range held.refs {
					for _, n := range m.parts {
						if n.id == r.id {
							want++
						}
					}
				}
				if want == 0 || want == len(held.refs) {
					t.Fatalf("%d of the %d old parts reused: the case needs some reused, some not", want, len(held.refs))
				}
				defer held.Close()
			}
			if got := mappedUnder(dir); got != want {
				t.Errorf("%d parts of the folder mapped after the publish, want %d", got, want)
			}
			places, err := ReadFile(dir, "f7.txt")
			if err != nil || len(places) != 1 || !strings.Contains(places[0].Lines[0], "second") {
				t.Errorf("f7.txt reads %+v, %v", places, err)
			}
		})
	}
}

// mappedUnder counts the cached mappings of parts in dir.
func mappedUnder(dir string) int {
	cache.Lock()
	defer cache.Unlock()
	n := 0
	for p, m := range cache.m {
		if filepath.Dir(p) == dir && m.unmap != nil {
			n++
		}
	}
	return n
}
