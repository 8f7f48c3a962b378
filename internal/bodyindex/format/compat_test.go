package format

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/textfold"
)

// compatPlaces is the content of the fixture folder of every released
// format version (testdata/v<N>), made by TestBackwardsCompat -update
// (go test -update regenerates the current version's).
var compatPlaces = map[string][]extract.Place{
	"見積.xlsx": {
		place("売上", "", "品名\t数量", "りんご\t10", "ＡＢＣ\t\"1行目\u20282行目\""),
		place("売上[図形]", "F2\t納期は別途相談"),
	},
	"報告.docx": {place("ページ001", "ｶﾞｽ料金の件", "Apple pie"), place("ヘッダー・フッター", "社外秘")},
	"空.txt":   nil,
}

func place(name string, lines ...string) extract.Place {
	return extract.Place{Name: name, Lines: lines}
}

// TestBackwardsCompat reads the fixture of every released version: the
// current one must read back exactly, an older one must give the rebuild
// error, never a misread.
func TestBackwardsCompat(t *testing.T) {
	cur := testutil.FixturePath(fmt.Sprintf("v%d", Version))
	if testutil.Update() {
		os.RemoveAll(cur)
		os.MkdirAll(cur, 0o755)
		var files []testFile
		for name, places := range compatPlaces {
			files = append(files, testFile{name, places})
		}
		// One chunk of small files, sorted as the file table is (none of
		// these names changes when upper-cased): the bytes Publish writes.
		slices.SortFunc(files, func(a, b testFile) int { return strings.Compare(a.name, b.name) })
		writeFolder(t, cur, files...)
	}
	dirs := testutil.Fixtures(t, "v*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, err := Files(dir)
			if dir != cur {
				var rb *RebuildError
				if !errors.As(err, &rb) {
					t.Fatalf("Files(%s) = %v, want RebuildError", dir, err)
				}
				return
			}
			if err != nil || len(files) != len(compatPlaces) {
				t.Fatalf("Files = %v, %v", files, err)
			}
			for name, want := range compatPlaces {
				got, err := ReadFile(dir, name)
				if err != nil || (len(want) > 0 || len(got) > 0) && !reflect.DeepEqual(got, want) {
					t.Fatalf("ReadFile(%s) = %q, %v, want %q", name, got, err, want)
				}
			}
		})
	}
}

// fixtureFiles returns the manifest and parts of the current fixture, the
// seeds of the fuzz targets.
func fixtureFiles(t testing.TB) (manifest []byte, parts [][]byte) {
	dir := testutil.FixturePath(fmt.Sprintf("v%d", Version))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Name() == ManifestName:
			manifest = b
		case strings.HasPrefix(e.Name(), ManifestName):
			parts = append(parts, b)
		}
	}
	return manifest, parts
}

// FuzzOpen feeds random bytes to the part reader: it must give an error or
// a part whose every accessor stays in bounds, never a panic.
func FuzzOpen(f *testing.F) {
	_, parts := fixtureFiles(f)
	for _, p := range parts {
		f.Add(p)
	}
	f.Add([]byte("FUMIBAKP\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePart("fuzz", data)
		if err != nil {
			return
		}
		p.Candidates(textfold.QueryKeys("りんご"))
		p.Candidates(nil)
		p.Files()
		for _, li := range []int{-1, 0, p.Lines() / 2, p.Lines() - 1, p.Lines()} {
			if i, sg, err := p.SegmentFor(li); err == nil && (li < sg.FirstLine || li >= sg.FirstLine+sg.Lines || i < 0) {
				t.Fatalf("SegmentFor(%d) = %d, %+v", li, i, sg)
			}
		}
		p.Segments()
		for b := 0; b < p.Blocks(); b++ {
			if _, _, err := p.Folded(b); err != nil {
				continue
			}
			first, end := p.BlockLines(b)
			for i := first; i <= end; i++ {
				p.LineStart(i)
			}
			p.Original(b)
		}
	})
}

// FuzzManifest does the same for the manifest, through a folder.
func FuzzManifest(f *testing.F) {
	m, _ := fixtureFiles(f)
	f.Add(m)
	src := testutil.FixturePath(fmt.Sprintf("v%d", Version))
	ents, _ := os.ReadDir(src)
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		t.Cleanup(ReleaseMappings)
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(src, e.Name()))
			os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
		}
		os.WriteFile(filepath.Join(dir, ManifestName), data, 0o644)
		if _, err := Files(dir); err != nil {
			var rb *RebuildError
			if !errors.As(err, &rb) {
				t.Fatalf("Files = %v, want RebuildError", err)
			}
			return
		}
		fo, err := OpenFolder(dir)
		if err != nil {
			return
		}
		defer fo.Close()
		for i := 0; i < fo.NumFiles(); i++ {
			fo.Places(i)
		}
	})
}
