package bodyindex

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// TestPublishLeavesNothingMapped: a publish that read the old index (some
// parts reused, some encoded again) leaves none of the folder's parts
// mapped, but those a search holds (issue 21: the coordinator kept every
// part it had read mapped to the end of the run); the folder still reads
// whole afterwards.
func TestPublishLeavesNothingMapped(t *testing.T) {
	indextest.SmallParts(t)
	tests := []struct {
		name   string
		search bool // a search holds the folder open across the publish
	}{
		{name: "no search"},
		{name: "a search holds the old parts", search: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := indextest.TempDir(t)
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
			var held *format.Folder
			if tt.search {
				f, err := format.OpenFolder(dir)
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
				m, err := format.ReadManifest(dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range held.Refs() {
					for _, n := range m.Parts {
						if n.ID == r.ID {
							want++
						}
					}
				}
				if want == 0 || want == len(held.Refs()) {
					t.Fatalf("%d of the %d old parts reused: the case needs some reused, some not", want, len(held.Refs()))
				}
				defer held.Close()
			}
			if got := format.Mapped(dir); got != want {
				t.Errorf("%d parts of the folder mapped after the publish, want %d", got, want)
			}
			places, err := format.ReadFile(dir, "f7.txt")
			if err != nil || len(places) != 1 || !strings.Contains(places[0].Lines[0], "second") {
				t.Errorf("f7.txt reads %+v, %v", places, err)
			}
		})
	}
}
