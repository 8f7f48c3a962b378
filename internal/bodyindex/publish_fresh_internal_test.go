package bodyindex

import (
	"errors"
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

// freshPlaces are the places of test file i.
func freshPlaces(i int) []extract.Place {
	var lines []string
	for j := 0; j < 150; j++ {
		lines = append(lines, fmt.Sprintf("ファイル%02d の %d 行目 apple Ｂａｎａｎａ", i, j))
	}
	return []extract.Place{{Name: "本文", Lines: lines}, {Name: "Sheet1", Lines: []string{"", "a\tb"}}}
}

// publishedBytes returns the files of dir's body index by name, and fails on
// anything else left in dir.
func publishedBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
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

// TestPublishFresh: files handed to a publish as batch records give the
// same body index bytes as the same files in per-file folders, whether
// their text is kept in memory or loaded again, and mixed with per-file
// folders; a record replaces a per-file folder of the same name.
func TestPublishFresh(t *testing.T) {
	const n = 24
	viaFolders := func() map[string]string {
		dir := indextest.TempDir(t)
		for i := range n {
			places, _, err := content.NormalizePlaces(freshPlaces(i))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := content.WriteFolder(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), places); err != nil {
				t.Fatal(err)
			}
		}
		if err := Publish(dir, nil); err != nil {
			t.Fatal(err)
		}
		return publishedBytes(t, dir)
	}()
	tests := []struct {
		name    string
		keep    int64
		folders func(i int) bool // files i with a per-file folder instead
		stale   bool             // a per-file folder of other text beside each record
	}{
		{name: "all records, kept", keep: 1 << 40},
		{name: "all records, loaded again", keep: 0},
		{name: "mixed", keep: 1 << 40, folders: func(i int) bool { return i%3 == 0 }},
		{name: "mixed, loaded again", keep: 20000, folders: func(i int) bool { return i%2 == 0 }},
		{name: "record replaces a per-file folder", keep: 1 << 40, stale: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := keepText
			keepText = tt.keep
			defer func() { keepText = old }()
			// A folder that does not exist yet: the publish creates it.
			dir := filepath.Join(indextest.TempDir(t), "新しい", "フォルダ")
			loads := 0
			var fresh []Fresh
			for i := range n {
				name := fmt.Sprintf("f%02d.txt", i)
				places, _, err := content.NormalizePlaces(freshPlaces(i))
				if err != nil {
					t.Fatal(err)
				}
				if tt.folders != nil && tt.folders(i) {
					if _, err := content.WriteFolder(filepath.Join(dir, name), places); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if tt.stale {
					if _, err := content.WriteFolder(filepath.Join(dir, name), []extract.Place{{Name: "本文", Lines: []string{"古い"}}}); err != nil {
						t.Fatal(err)
					}
				}
				fresh = append(fresh, Fresh{Name: name, Load: func() ([]extract.Place, error) { loads++; return places, nil }})
			}
			if err := PublishFresh(dir, nil, nil, fresh); err != nil {
				t.Fatal(err)
			}
			got := publishedBytes(t, dir)
			if len(got) != len(viaFolders) {
				t.Fatalf("files: %d, want %d", len(got), len(viaFolders))
			}
			for name, b := range viaFolders {
				if got[name] != b {
					t.Errorf("%s differs from the per-file folders' publish", name)
				}
			}
			if tt.keep == 0 && loads != 2*len(fresh) {
				t.Errorf("%d loads of %d records, want each twice", loads, len(fresh))
			}
		})
	}
}

// TestPublishFreshLoadFails: a record that cannot be read is left out and
// reported, the others are published.
func TestPublishFreshLoadFails(t *testing.T) {
	dir := indextest.TempDir(t)
	places, _, _ := content.NormalizePlaces(freshPlaces(1))
	fresh := []Fresh{
		{Name: "ok.txt", Load: func() ([]extract.Place, error) { return places, nil }},
		{Name: "bad.txt", Load: func() ([]extract.Place, error) { return nil, errors.New("checksum") }},
	}
	err := PublishFresh(dir, nil, nil, fresh)
	var lost *LostError
	if !errors.As(err, &lost) || len(lost.Files) != 1 || lost.Files[0] != "bad.txt" {
		t.Fatalf("PublishFresh = %v, want bad.txt lost", err)
	}
	files, err := format.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["ok.txt"]; !ok || len(files) != 1 {
		t.Errorf("Files = %v, want ok.txt only", files)
	}
}

// TestMakeFolder: makeFolder creates a folder and its missing parents and
// says so; a folder that is there is left as it is; a file in the way
// fails.
func TestMakeFolder(t *testing.T) {
	base := indextest.TempDir(t)
	if err := os.WriteFile(filepath.Join(base, "ファイル"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir     string
		created bool
		fails   bool
	}{
		{filepath.Join(base, "a", "b", "c"), true, false},
		{filepath.Join(base, "a", "b", "c"), false, false},
		{filepath.Join(base, "a", "d"), true, false},
		{base, false, false},
		{filepath.Join(base, "ファイル", "x"), false, true},
	}
	for _, tt := range tests {
		created, err := makeFolder(tt.dir)
		if created != tt.created || (err != nil) != tt.fails {
			t.Errorf("makeFolder(%s) = %v, %v; want created %v, failure %v", tt.dir, created, err, tt.created, tt.fails)
		}
		if st, serr := os.Stat(tt.dir); !tt.fails && (serr != nil || !st.IsDir()) {
			t.Errorf("%s is no folder after makeFolder: %v", tt.dir, serr)
		}
	}
}
