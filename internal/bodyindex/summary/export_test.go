package summary

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/extract"
)

// UsePublisher gives this package's internal tests package bodyindex's
// Publish, which they cannot import (bodyindex imports summary): the
// external test package passes it in its init (publisher_test.go), and
// the tests build their indexes with it as the indexer does.
func UsePublisher(p func(dir string, removed []string) error) { publish = p }

// publish is package bodyindex's Publish (UsePublisher).
var publish func(dir string, removed []string) error

// tempDir is a test folder whose mapped parts are released before it goes
// (Windows cannot delete a mapped file).
func tempDir(t testing.TB) string {
	d := t.TempDir()
	t.Cleanup(format.ReleaseMappings)
	return d
}

// smallParts shrinks blocks, parts, chunks and the summary's groups so
// that a few lines exercise every boundary.
func smallParts(t testing.TB) {
	t.Helper()
	b, m, cx, cn, gn, gx := format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin, groupMin, groupMax
	format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin, groupMin, groupMax = 40, 3, 300, 100, 1500, 3000
	t.Cleanup(func() {
		format.BlockTarget, format.MaxBlocks, format.ChunkMax, format.ChunkMin, groupMin, groupMax = b, m, cx, cn, gn, gx
	})
}

var words = []string{"りんご", "ミカン", "ｶﾞｽ", "ＡＢＣ", "abc", "見積", "確定", "QX-7731", "\t", " ", "売上", "ﾃｽﾄ", "Σ", "x"}

// randomPlaces returns up to three places of random lines of words.
func randomPlaces(r *rand.Rand) []extract.Place {
	var places []extract.Place
	for p := 0; p < r.IntN(4); p++ {
		var lines []string
		for l := 0; l < 1+r.IntN(30); l++ {
			var b strings.Builder
			for w := 0; w < r.IntN(12); w++ {
				b.WriteString(words[r.IntN(len(words))])
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
