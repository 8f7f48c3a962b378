package content_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// names lists dir's entries, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// TestTrashRecycles moves a published per-file folder into the trash,
// hands it out as a stage and writes the next file over it: the stage
// holds the new file's set only, whatever the old one had.
func TestTrashRecycles(t *testing.T) {
	src := content.Source{ModTime: time.Unix(0, 1764614400000000000), Size: 42}
	cases := []struct {
		name   string
		places []extract.Place
		src    *content.Source
		want   []string
	}{
		{"fewer places, no source", []extract.Place{{Name: "Sheet1", Lines: []string{"新しい"}}}, nil,
			[]string{".places", "Sheet1.tsv"}},
		{"same names with source", []extract.Place{{Name: "Sheet1", Lines: []string{"新しい"}}, {Name: "Sheet2", Lines: []string{"b"}}}, &src,
			[]string{".places", "Sheet1.tsv", "Sheet2.tsv"}},
		{"no text", nil, &src, []string{".places"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			published := filepath.Join(root, "content", "営業", "A社.xlsx")
			old := []extract.Place{{Name: "Sheet1", Lines: []string{"古い行がずっと長く続く"}}, {Name: "Sheet2", Lines: []string{"a"}}, {Name: "Sheet3", Lines: []string{"c"}}}
			if _, err := content.WriteStage(published, false, old, &content.Source{ModTime: time.Unix(0, 1), Size: 9}); err != nil {
				t.Fatal(err)
			}
			trash := content.NewTrash(filepath.Join(root, "tmp", "trash"))
			if err := trash.Remove(published); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(published); !os.IsNotExist(err) {
				t.Fatalf("published folder still there after Remove: %v", err)
			}
			stage := filepath.Join(root, "tmp", "w1", "stage", "7")
			if !trash.Reuse(stage) {
				t.Fatal("Reuse found nothing in the trash")
			}
			if trash.Reuse(filepath.Join(root, "tmp", "w1", "stage", "8")) {
				t.Fatal("Reuse handed out one folder twice")
			}
			if _, err := content.WriteStage(stage, true, c.places, c.src); err != nil {
				t.Fatal(err)
			}
			if got := names(t, stage); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("stage holds %v, want %v", got, c.want)
			}
			got, err := content.ReadFolder(stage)
			if err != nil {
				t.Fatal(err)
			}
			var want []extract.Place
			for _, p := range c.places {
				want = append(want, extract.Place{Name: p.Name, Lines: p.Lines})
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ReadFolder = %v, want %v", got, want)
			}
			s, ok := content.ReadSource(stage)
			if ok != (c.src != nil) || ok && (!s.ModTime.Equal(c.src.ModTime) || s.Size != c.src.Size) {
				t.Fatalf("ReadSource = %v, %v, want %v", s, ok, c.src)
			}
			// ReadFileFolder reads the same in one pass over .places.
			f, isFolder, err := content.ReadFileFolder(stage, -1)
			if err != nil || !isFolder || f.Big || !reflect.DeepEqual(f.Places, want) || f.HasSource != ok || ok && !f.Source.ModTime.Equal(s.ModTime) {
				t.Fatalf("ReadFileFolder = %+v, %v, %v, want %v and source %v", f, isFolder, err, want, c.src)
			}
			if f, _, err := content.ReadFileFolder(stage, 0); len(c.places) > 0 && (err != nil || !f.Big || f.Places != nil) {
				t.Fatalf("ReadFileFolder(max 0) = %+v, %v, want Big", f, err)
			}
		})
	}
}

// TestWriteStageExisting: a stage that is not said to be recycled but
// exists after all (left by an earlier try) is listed and cleaned as a
// recycled one, and a folder without .places is no per-file folder.
func TestWriteStageExisting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "stage", "1")
	if _, err := content.WriteStage(dir, false, []extract.Place{{Name: "Sheet1", Lines: []string{"a"}}, {Name: "Sheet2", Lines: []string{"b"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := content.WriteStage(dir, false, []extract.Place{{Name: "Sheet2", Lines: []string{"c"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, dir), []string{".places", "Sheet2.tsv"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("stage holds %v, want %v", got, want)
	}
	if _, ok, err := content.ReadFileFolder(filepath.Dir(dir), -1); ok || err != nil {
		t.Fatalf("ReadFileFolder(source folder) = %v, %v, want not a per-file folder", ok, err)
	}
}

// TestTrashNil deletes a per-file folder when there is no trash, and
// Remove of a folder that is already gone is no error.
func TestTrashNil(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a.txt")
	if _, err := content.WriteStage(dir, false, []extract.Place{{Name: extract.PlaceText, Lines: []string{"x"}}}, nil); err != nil {
		t.Fatal(err)
	}
	var trash *content.Trash
	if err := trash.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if got := names(t, root); len(got) != 0 {
		t.Fatalf("left %v after Remove without a trash", got)
	}
	if trash.Reuse(filepath.Join(root, "stage")) {
		t.Fatal("a nil trash handed out a folder")
	}
	real := content.NewTrash(filepath.Join(root, "trash"))
	if err := real.Remove(filepath.Join(root, "gone.txt")); err != nil {
		t.Fatalf("Remove of a missing folder: %v", err)
	}
	if real.Reuse(filepath.Join(root, "stage")) {
		t.Fatal("Reuse handed out a folder that was never there")
	}
}

// TestSourceLine checks the source record's two forms: the line of .places
// that WriteStage writes (format of issue 21), which neither ReadFolder nor
// CountTSV takes for a place, and the .source file of folders written
// before, which ReadSource still reads; a sheet named like the line stays
// a place (FileName escapes its colon).
func TestSourceLine(t *testing.T) {
	src := content.Source{ModTime: time.Unix(0, 1764614400000000000), Size: 18432}
	places := []extract.Place{{Name: ":source 1 2", Lines: []string{"シート"}}, {Name: "Sheet2", Lines: []string{"x"}}}
	cases := []struct {
		name    string
		write   func(dir string) error
		want    content.Source
		wantOK  bool
		wantTSV int
	}{
		{"line in .places", func(dir string) error { _, err := content.WriteStage(dir, false, places, &src); return err }, src, true, 2},
		{"no source", func(dir string) error { _, err := content.WriteStage(dir, false, places, nil); return err }, content.Source{}, false, 2},
		{"legacy .source file", func(dir string) error {
			if _, err := content.WriteFolder(dir, places); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, content.SourceName), []byte("1764614400000000000 18432\n"), 0o644)
		}, src, true, 2},
		{"malformed line", func(dir string) error {
			if _, err := content.WriteFolder(dir, places[1:]); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, ".places"), []byte("Sheet2.tsv\n:source x 1\n"), 0o644)
		}, content.Source{}, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "A社.xlsx")
			if err := c.write(dir); err != nil {
				t.Fatal(err)
			}
			s, ok := content.ReadSource(dir)
			if ok != c.wantOK || !s.ModTime.Equal(c.want.ModTime) || s.Size != c.want.Size {
				t.Fatalf("ReadSource = %v, %v, want %v, %v", s, ok, c.want, c.wantOK)
			}
			got, err := content.ReadFolder(dir)
			if err != nil || len(got) != c.wantTSV {
				t.Fatalf("ReadFolder = %v, %v, want %d places", got, err, c.wantTSV)
			}
			if c.wantTSV == 2 && got[0].Name != ":source 1 2" {
				t.Fatalf("first place is %q, want the sheet named like the source line", got[0].Name)
			}
			if n, complete := content.CountTSV(dir); n != c.wantTSV || !complete {
				t.Fatalf("CountTSV = %d, %v, want %d, true", n, complete, c.wantTSV)
			}
		})
	}
}
