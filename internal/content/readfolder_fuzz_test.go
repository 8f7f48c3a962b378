package content_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
)

// FuzzReadFileFolder feeds any bytes as a per-file folder's .places (with
// one place TSV beside it): ReadFileFolder, which reads .places once, must
// never panic and must read what ReadFolder and ReadSource read (issue 35).
func FuzzReadFileFolder(f *testing.F) {
	f.Add([]byte("text.tsv\n:source 1764614400000000000 18432\n"), []byte("\ufeff行1\r\n行2\r\n"))
	f.Add([]byte("Sheet1.tsv\nSheet%2F2.tsv\n"), []byte("\ufeffa\tb\r\n"))
	f.Add([]byte(":source 1 2\n"), []byte(""))
	f.Add([]byte("../x.tsv\n"), []byte("x"))
	f.Add([]byte("text.tsv\n:source nope\n"), []byte("\ufeffx\n"))
	f.Fuzz(func(t *testing.T, manifest, tsv []byte) {
		dir := filepath.Join(t.TempDir(), "a.txt")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, content.ManifestName), manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "text.tsv"), tsv, 0o644)
		got, ok, err := content.ReadFileFolder(dir, -1)
		if !ok {
			t.Fatalf("ReadFileFolder: not a per-file folder though .places is there")
		}
		places, werr := content.ReadFolder(dir)
		if (err == nil) != (werr == nil) {
			t.Fatalf("ReadFileFolder error %v, ReadFolder error %v", err, werr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got.Places, places) {
			t.Fatalf("ReadFileFolder places %q, ReadFolder %q", got.Places, places)
		}
		src, hasSrc := content.ReadSource(dir)
		if got.HasSource != hasSrc || hasSrc && (!got.Source.ModTime.Equal(src.ModTime) || got.Source.Size != src.Size) {
			t.Fatalf("ReadFileFolder source %v %v, ReadSource %v %v", got.Source, got.HasSource, src, hasSrc)
		}
	})
}
