package bodyindex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// TestPublishRereadsText: a publish that keeps no text in memory (every
// file read again when its chunk is encoded) writes the same bytes as one
// that keeps it all.
func TestPublishRereadsText(t *testing.T) {
	publish := func(keep int64) map[string]string {
		old := keepText
		keepText = keep
		defer func() { keepText = old }()
		dir := indextest.TempDir(t)
		for i := 0; i < 30; i++ {
			var lines []string
			for j := 0; j < 200; j++ {
				lines = append(lines, fmt.Sprintf("ファイル%02d の %d 行目 apple Ｂａｎａｎａ", i, j))
			}
			places := []extract.Place{{Name: "本文", Lines: lines}, {Name: "Sheet1", Lines: []string{"", "a\tb"}}}
			if _, err := content.WriteFolder(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), places); err != nil {
				t.Fatal(err)
			}
		}
		if err := Publish(dir, nil); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), format.ManifestName) {
				t.Errorf("left in the folder after publishing: %s", e.Name())
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(b)
		}
		return out
	}
	all, none := publish(1<<40), publish(0)
	if len(all) < 2 || len(all) != len(none) {
		t.Fatalf("files: %d kept, %d re-read", len(all), len(none))
	}
	for name, b := range all {
		if none[name] != b {
			t.Errorf("%s differs between keeping and re-reading the text", name)
		}
	}
}
