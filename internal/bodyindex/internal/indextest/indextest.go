// Package indextest holds what the tests of the body index's floors share:
// staging a per-file folder, shrinking the format's sizes so that a few
// lines cross every boundary, random places, and a temporary folder whose
// mapped parts are released before it goes. The root's tests and
// summary's cannot share helpers otherwise: summary's tests may not
// import the root (it imports summary), and test files do not export.
package indextest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// Stage writes a per-file folder for name inside dir, as a worker does.
func Stage(t testing.TB, dir, name string, places ...extract.Place) {
	t.Helper()
	if _, err := content.WriteFolder(filepath.Join(dir, name), places); err != nil {
		t.Fatal(err)
	}
}

// Place is a place of name holding lines.
func Place(name string, lines ...string) extract.Place {
	return extract.Place{Name: name, Lines: lines}
}

// TempDir is t.TempDir whose removal comes after the parts mapped in it
// are unmapped (Windows cannot delete a mapped file).
func TempDir(t testing.TB) string {
	d := t.TempDir()
	t.Cleanup(format.ReleaseMappings)
	return d
}

// SmallParts shrinks the format's blocks, parts and chunks for the rest
// of t, so that a few lines exercise every boundary.
func SmallParts(t testing.TB) {
	t.Helper()
	b, m, cx, cn := format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin
	format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin = 40, 3, 300, 100
	t.Cleanup(func() {
		format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin = b, m, cx, cn
	})
}

// Words are what RandomPlaces draws lines from: kana and kanji, full- and
// half-width forms that fold together, tabs and spaces.
var Words = []string{"りんご", "ミカン", "ｶﾞｽ", "ＡＢＣ", "abc", "見積", "確定", "QX-7731", "\t", " ", "売上", "ﾃｽﾄ", "Σ", "x"}

// RandomPlaces returns up to three places of random lines of Words, as a
// reader gives them (no trailing empty line, no place without text).
func RandomPlaces(r *rand.Rand) []extract.Place {
	var places []extract.Place
	for p := 0; p < r.IntN(4); p++ {
		var lines []string
		for l := 0; l < 1+r.IntN(30); l++ {
			var b strings.Builder
			for w := 0; w < r.IntN(12); w++ {
				b.WriteString(Words[r.IntN(len(Words))])
			}
			lines = append(lines, b.String())
		}
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			continue
		}
		places = append(places, extract.Place{Name: fmt.Sprintf("シート%d", p), Lines: lines})
	}
	return places
}
