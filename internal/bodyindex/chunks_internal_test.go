package bodyindex

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/textfold"
)

// chunkSizes sets the chunk planner's sizes for a test and puts them back
// after it.
func chunkSizes(t testing.TB, block, blocks, lo, hi int, anchorBits uint32) {
	t.Helper()
	b, m, cn, cx, ca := format.BlockTarget, format.MaxBlocks, format.ChunkMin, format.ChunkMax, format.ChunkAnchor
	format.BlockTarget, format.MaxBlocks, format.ChunkMin, format.ChunkMax, format.ChunkAnchor = block, blocks, lo, hi, anchorBits
	t.Cleanup(func() {
		format.BlockTarget, format.MaxBlocks, format.ChunkMin, format.ChunkMax, format.ChunkAnchor = b, m, cn, cx, ca
	})
}

// chunkFile is the text of file i of a test folder, n lines (0: 2 to 12
// lines by i, so that chunks hold varying numbers of files as real ones
// do); variant changes the words, not the size.
func chunkFile(i, n int, variant string) []extract.Place {
	if n == 0 {
		h := fnv.New32a()
		fmt.Fprint(h, i)
		n = 2 + int(h.Sum32()%11)
	}
	var lines []string
	for l := 0; l < n; l++ {
		lines = append(lines, fmt.Sprintf("%s行%03d-%03d 見積と請求の本文", variant, i, l))
	}
	return []extract.Place{{Name: "本文", Lines: lines}}
}

// partFiles returns, per part id of dir's index, the names of the files
// it holds.
func partFiles(t *testing.T, dir string) (map[[format.IDSize]byte][]string, []format.FileEntry) {
	t.Helper()
	f, err := format.OpenFolder(dir)
	if err != nil || f == nil {
		t.Fatalf("OpenFolder = %v, %v", f, err)
	}
	defer f.Close()
	out := map[[format.IDSize]byte][]string{}
	for _, r := range f.Refs() {
		for i := r.FirstFile; i <= r.LastFile; i++ {
			out[r.ID] = append(out[r.ID], f.Entries()[i].Name)
		}
	}
	return out, slices.Clone(f.Entries())
}

// TestChangedFileReencodesItsChunk publishes a folder of many files, edits
// it and checks that only the chunk holding the edit is encoded again: every
// other part keeps its name (same bytes), the new parts hold exactly the
// files of the edited chunk, and the index equals one published from
// scratch.
func TestChangedFileReencodesItsChunk(t *testing.T) {
	const nFiles = 80
	name := func(i int) string { return fmt.Sprintf("見積%03d.txt", i) }
	tests := []struct {
		what  string
		edit  func(t *testing.T, dir string, model map[string][]extract.Place, first []int) (removed []string, at string)
		parts int // chunks encoded again at most
	}{
		{"middle of a chunk", func(t *testing.T, dir string, model map[string][]extract.Place, first []int) ([]string, string) {
			n := name(first[3] + 1)
			model[n] = chunkFile(first[3]+1, 0, "改")
			return nil, n
		}, 1},
		{"first file of a chunk", func(t *testing.T, dir string, model map[string][]extract.Place, first []int) ([]string, string) {
			n := name(first[4])
			model[n] = chunkFile(first[4], 0, "改")
			return nil, n
		}, 1},
		{"last file of a chunk", func(t *testing.T, dir string, model map[string][]extract.Place, first []int) ([]string, string) {
			n := name(first[5] - 1)
			model[n] = chunkFile(first[5]-1, 0, "改")
			return nil, n
		}, 1},
		{"file added", func(t *testing.T, dir string, model map[string][]extract.Place, first []int) ([]string, string) {
			n := name(first[3]+1) + "追加.txt"
			model[n] = chunkFile(999, 6, "新")
			return nil, n
		}, 2},
		{"file removed", func(t *testing.T, dir string, model map[string][]extract.Place, first []int) ([]string, string) {
			n := name(first[3] + 1)
			delete(model, n)
			return []string{n}, name(first[3] + 2)
		}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.what, func(t *testing.T) {
			// Files of 100–600 bytes stand for the benchmark's 10–90 KB,
			// with chunks of 64–512 KB scaled down 150 times: chunks much
			// smaller than a folder (this build's 3–4 MB hold a whole
			// folder of the benchmark; see format.go).
			chunkSizes(t, format.BlockTarget/150, format.MaxBlocks, (64<<10)/150, (512<<10)/150, 3)
			dir := indextest.TempDir(t)
			model := map[string][]extract.Place{}
			for i := 0; i < nFiles; i++ {
				model[name(i)] = chunkFile(i, 0, "")
			}
			writeModel(t, dir, model)
			if err := Publish(dir, nil); err != nil {
				t.Fatal(err)
			}
			before, entries := partFiles(t, dir)
			var first []int // file index where each chunk starts
			for _, c := range planChunks(entries) {
				first = append(first, c[0])
			}
			if len(first) < 8 || len(before) != len(first) {
				t.Fatalf("%d chunks in %d parts, want at least 8, one part each", len(first), len(before))
			}
			removed, at := tc.edit(t, dir, model, first)
			for n, places := range model {
				if !reflect.DeepEqual(places, chunkFile(fileNumber(n), 0, "")) {
					if _, err := content.WriteFolder(filepath.Join(dir, n), places); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := Publish(dir, removed); err != nil {
				t.Fatal(err)
			}
			after, entries := partFiles(t, dir)
			var fresh []string // files of the parts written by the second publish
			encoded := 0
			for id, files := range after {
				if _, kept := before[id]; !kept {
					fresh = append(fresh, files...)
					encoded++
				}
			}
			if encoded == 0 || encoded > tc.parts {
				t.Fatalf("%d parts encoded again, want 1 to %d", encoded, tc.parts)
			}
			if !slices.Contains(fresh, at) {
				t.Fatalf("the new parts hold %v, not %s", fresh, at)
			}
			// The new parts hold whole chunks of the new plan, and the one
			// holding the edit among them.
			var want []string
			for _, c := range planChunks(entries) {
				var names []string
				for _, i := range c {
					names = append(names, entries[i].Name)
				}
				if slices.Contains(fresh, names[0]) {
					want = append(want, names...)
				}
			}
			slices.Sort(fresh)
			slices.Sort(want)
			if !slices.Equal(fresh, want) {
				t.Fatalf("new parts hold %v, want the chunks %v", fresh, want)
			}
			checkModel(t, dir, model)
			scratch := indextest.TempDir(t)
			writeModel(t, scratch, model)
			if err := Publish(scratch, nil); err != nil {
				t.Fatal(err)
			}
			if a, b := indexBytes(t, dir), indexBytes(t, scratch); !reflect.DeepEqual(a, b) {
				t.Fatalf("index (%d files) differs from one published from scratch (%d files)", len(a), len(b))
			}
		})
	}
}

// fileNumber is the i of 見積<i>.txt (999 for other names).
func fileNumber(name string) int {
	var i int
	if _, err := fmt.Sscanf(strings.TrimPrefix(name, "見積"), "%03d.txt", &i); err != nil || name != fmt.Sprintf("見積%03d.txt", i) {
		return 999
	}
	return i
}

func writeModel(t *testing.T, dir string, model map[string][]extract.Place) {
	t.Helper()
	for n, places := range model {
		if _, err := content.WriteFolder(filepath.Join(dir, n), places); err != nil {
			t.Fatal(err)
		}
	}
}

// checkModel reads every file back and checks that the folder holds only
// the manifest and the parts it lists.
func checkModel(t *testing.T, dir string, model map[string][]extract.Place) {
	t.Helper()
	files, err := format.Files(dir)
	if err != nil || len(files) != len(model) {
		t.Fatalf("Files = %d files, %v; want %d", len(files), err, len(model))
	}
	for n, want := range model {
		got, err := format.ReadFile(dir, n)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("ReadFile(%s) = %q, %v; want %q", n, got, err, want)
		}
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{format.ManifestName: true}
	for _, r := range m.Parts {
		listed[format.PartName(r.ID)] = true
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), format.ManifestName) && !listed[e.Name()] {
			t.Fatalf("stale index file %s left", e.Name())
		}
	}
}

// TestRechunkFromOldSizes publishes a folder with 3–4 MB chunks (one
// chunk), changes one file and publishes with 64–512 KB chunks: the folder is cut into the new chunks, every file reads
// back, a word of the changed file is found in its part only, the old part
// is gone, and the index equals one published from scratch.
func TestRechunkFromOldSizes(t *testing.T) {
	name := func(i int) string { return fmt.Sprintf("見積%03d.txt", i) }
	model := map[string][]extract.Place{}
	for i := 0; i < 60; i++ {
		model[name(i)] = chunkFile(i, 400, "") // ~20 KB each, 1.2 MB in all
	}
	dir := indextest.TempDir(t)
	writeModel(t, dir, model)
	lo, hi, anchorBits := 64<<10, 512<<10, uint32(3) // the sizes published with next
	chunkSizes(t, format.BlockTarget, format.MaxBlocks, 3<<20, 4<<20, 3)
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	format.ChunkMin, format.ChunkMax, format.ChunkAnchor = lo, hi, anchorBits
	old, _ := partFiles(t, dir)
	if len(old) != 1 {
		t.Fatalf("%d parts with the old sizes, want 1", len(old))
	}
	changed := name(17)
	model[changed] = []extract.Place{{Name: "本文", Lines: []string{"鬱金香の件", "変更した行"}}}
	if _, err := content.WriteFolder(filepath.Join(dir, changed), model[changed]); err != nil {
		t.Fatal(err)
	}
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	parts, _ := partFiles(t, dir)
	if len(parts) < 3 {
		t.Fatalf("%d parts after republishing, want the folder cut into chunks", len(parts))
	}
	checkModel(t, dir, model)
	f, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := textfold.QueryKeys("鬱金香")
	for i := 0; i < f.NumParts(); i++ {
		p, files := f.Part(i), parts[f.Refs()[i].ID]
		if hit := p.Candidates(keys) != 0; hit != slices.Contains(files, changed) {
			t.Fatalf("part %d (%v): Candidates = %v", i, files, hit)
		}
	}
	scratch := indextest.TempDir(t)
	writeModel(t, scratch, model)
	if err := Publish(scratch, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := indexBytes(t, dir), indexBytes(t, scratch); !reflect.DeepEqual(a, b) {
		t.Fatalf("republished index (%d files) differs from scratch (%d files)", len(a), len(b))
	}
}
