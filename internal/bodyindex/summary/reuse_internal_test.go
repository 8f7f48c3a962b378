package summary

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
)

// summaryCounts records what the writes read through the test hook.
type summaryCounts struct{ read, counted int }

func hookSummary(t *testing.T) *summaryCounts {
	t.Helper()
	c := &summaryCounts{}
	old := summaryWritten
	summaryWritten = func(read, counted int) { *c = summaryCounts{read, counted} }
	t.Cleanup(func() { summaryWritten = old })
	return c
}

// readGroup is a group of a summary read back: its id and its parts.
type readGroup struct {
	id    [format.IDSize]byte
	parts [][format.IDSize]byte
}

// summaryTables returns where the rows of a summary start and its groups.
func summaryTables(b []byte) (rowsAt int, groups []readGroup) {
	le := binary.LittleEndian
	nDirs, nParts, nNames, nGroups := int(le.Uint32(b[12:])), int(le.Uint32(b[16:])), int(le.Uint32(b[28:])), int(le.Uint32(b[36:]))
	at := summaryHeaderSize + summaryDirSize*nDirs
	var ids [][format.IDSize]byte
	for j := 0; j < nParts; j++ {
		ids = append(ids, [format.IDSize]byte(b[at+format.IDSize*j:]))
	}
	at += format.IDSize * nParts
	for g := 0; g < nGroups; g++ {
		first, end := int(le.Uint32(b[at+4*g:])), nParts
		if g+1 < nGroups {
			end = int(le.Uint32(b[at+4*g+4:]))
		}
		refs := make([]format.PartRef, 0, end-first)
		for _, id := range ids[first:end] {
			refs = append(refs, format.PartRef{ID: id})
		}
		groups = append(groups, readGroup{id: groupID(refs), parts: ids[first:end]})
	}
	return at + 4*nGroups + nNames, groups
}

// newParts counts the parts of the groups of b that old does not have
// (the parts a rewrite over old reads) and returns the number of groups.
func newParts(b, old []byte) (parts, groups int) {
	_, gs := summaryTables(b)
	_, olds := summaryTables(old)
	for _, g := range gs {
		if !slices.ContainsFunc(olds, func(o readGroup) bool { return o.id == g.id }) {
			parts += len(g.parts)
		}
	}
	return parts, len(gs)
}

// groupOf returns the group of b holding the part named by file.
func groupOf(t *testing.T, b []byte, file string) readGroup {
	t.Helper()
	_, gs := summaryTables(b)
	for _, g := range gs {
		for _, id := range g.parts {
			if format.PartName(id) == filepath.Base(file) {
				return g
			}
		}
	}
	t.Fatalf("no group holds %s", file)
	return readGroup{}
}

// resign edits the header of a summary and fixes its CRC, so that the
// edit is what a writer could have written.
func resign(b []byte, edit func(h []byte)) []byte {
	b = slices.Clone(b)
	edit(b[:summaryHeaderSize])
	rowsAt, _ := summaryTables(b)
	crc := crc32.Update(crc32.Checksum(b[:60], format.Castagnoli()), format.Castagnoli(), b[summaryHeaderSize:rowsAt])
	binary.LittleEndian.PutUint32(b[60:], crc)
	return b
}

// rewriteFrom puts old in place of the summary and writes the summary of
// the index as it is, reusing what old allows.
func rewriteFrom(t *testing.T, root string, old []byte) []byte {
	t.Helper()
	path := Path(root, "案件")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSummaryReuse changes folders of an index (new, changed, emptied and
// removed ones) and checks that the summary written over the one before
// equals the one written from scratch, that it read only the new parts
// when it could, and that anything doubtful in the old summary is read
// from the parts instead of copied.
func TestSummaryReuse(t *testing.T) {
	root := manyPartsCorpus(t)
	idx := filepath.Join(root, "案件")
	counts := hookSummary(t)
	s0 := writeSummaryBytes(t, root)
	if counts.read == 0 || counts.read != counts.counted {
		t.Fatalf("a write from scratch read %d parts, counted %d", counts.read, counts.counted)
	}

	// A part gone from its folder: read (it fails, and lets every search
	// through), not copied.
	parts, _ := filepath.Glob(filepath.Join(idx, "部1", "課1", format.ManifestName+"."+"*"))
	if len(parts) == 0 {
		t.Fatal("no part in 部1/課1")
	}
	away := parts[0] + ".away"
	if err := os.Rename(parts[0], away); err != nil {
		t.Fatal(err)
	}
	gone := groupOf(t, s0, parts[0])
	if len(gone.parts) < 2 {
		t.Fatalf("the group of the part gone has %d parts: groups of several parts are not tested", len(gone.parts))
	}
	s1 := rewriteFrom(t, root, s0)
	if c, n := *counts, len(gone.parts); c.read != n || c.counted != n {
		t.Errorf("with a part gone: read %d parts, counted %d; want its group's %d", c.read, c.counted, n)
	}
	if fresh := writeSummaryBytes(t, root); !bytes.Equal(s1, fresh) {
		t.Fatalf("with a part gone: %d bytes differ from a fresh summary", diffCount(s1, fresh))
	}
	if err := os.Rename(away, parts[0]); err != nil {
		t.Fatal(err)
	}

	// Changes: new files in two folders, a folder emptied, one removed,
	// one added.
	r := rand.New(rand.NewPCG(5, 6))
	publishSummaryFolder(t, root, "部2/課2", r, 3)
	publishSummaryFolder(t, root, "部0/課8", r, 1)
	if err := publish(filepath.Join(idx, "部3", "課3"), []string{"資料0.txt", "資料1.txt", "資料2.txt", "資料3.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(idx, "部1", "課5")); err != nil {
		t.Fatal(err)
	}
	publishSummaryFolder(t, root, "部9/新しい課", r, 2)
	fresh := writeSummaryBytes(t, root)
	all := counts.read
	newParts, nGroups := newParts(fresh, s0)
	if newParts == 0 || newParts >= all/2 {
		t.Fatalf("%d parts in new groups of %d: the changes do not test reuse", newParts, all)
	}
	if nGroups >= all/2 {
		t.Fatalf("%d groups of %d parts: groups of several parts are not tested", nGroups, all)
	}
	le := binary.LittleEndian
	if _, gs := summaryTables(fresh); !slices.ContainsFunc(gs, func(g readGroup) bool { return g.id == [format.IDSize]byte(s0[44:]) }) {
		t.Fatal("the changes remove the group with the most keys: the key record is not tested")
	}
	// The group of the part that was gone is read again from s1 (its
	// column there lets everything through) unless it changed anyway.
	goneRead := len(gone.parts)
	if _, gs := summaryTables(fresh); !slices.ContainsFunc(gs, func(g readGroup) bool { return g.id == gone.id }) {
		goneRead = 0
	}
	rowsAt0, _ := summaryTables(s0)
	tests := []struct {
		name    string
		old     []byte
		band    int // rows per band, 0: the default budget
		read    int // parts read
		counted int // parts asked for their key counts, -1: all or only the new ones
	}{
		{"intact", s0, 0, newParts, -1},
		{"intact, bands of 512 rows", s0, 512, newParts, -1},
		{"a part gone before", s1, 512, newParts + goneRead, -1},
		{"no key record", resign(s0, func(h []byte) { clear(h[40:60]) }), 0, newParts, all},
		{"key record of a removed group", resign(s0, func(h []byte) { copy(h[44:60], bytes.Repeat([]byte{0xEE}, 16)) }), 0, newParts, all},
		// Damage in the first 1024 rows drops the old summary before
		// the row count is chosen; further on, from that band on.
		{"row damaged in the first band", flip(s0, rowsAt0+1), 512, all, all},
		{"row damaged in the last band", flip(s0, len(s0)-10), 512, all, newParts},
		{"folder table damaged", flip(s0, summaryHeaderSize+4), 0, all, all},
		{"other hash count", resign(s0, func(h []byte) { le.PutUint32(h[24:], 2) }), 0, all, newParts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			budget := summaryBudget
			if tt.band > 0 {
				row, oldRow := int(le.Uint32(fresh[32:])), int(le.Uint32(tt.old[32:]))
				budget = tt.band * (row + oldRow + summaryBatch/8)
			}
			withBudget(t, budget, func() {
				got := rewriteFrom(t, root, tt.old)
				if !bytes.Equal(got, fresh) {
					t.Fatalf("%d bytes differ from a fresh summary", diffCount(got, fresh))
				}
			})
			want := tt.counted
			if want < 0 {
				want = tt.read
			}
			if counts.read != tt.read || counts.counted != want {
				t.Errorf("read %d parts, counted %d; want %d, %d", counts.read, counts.counted, tt.read, want)
			}
		})
	}
}

// flip returns b with the byte at i inverted.
func flip(b []byte, i int) []byte {
	b = slices.Clone(b)
	b[i] ^= 0xFF
	return b
}

// TestCopyChunks checks the copy of kept columns against one bit at a
// time, for maps with runs short and long (across bytes and words), at
// every alignment, and columns moved out of order.
func TestCopyChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	bit := func(b []byte, i int) bool { return b[i/8]&(1<<(i%8)) != 0 }
	for _, keep := range []int{0, 1, 2, 4, 8, 10} { // in 10 columns kept
		for try := 0; try < 20; try++ {
			oldCols, newCols, rows := 8+r.IntN(300), 8+r.IntN(300), 1+r.IntN(600)
			oldRow, newRow := (oldCols+7)/8+summaryRowCRC, (newCols+7)/8+summaryRowCRC
			from := make([]int, newCols)
			for j := range from {
				from[j] = -1
				if r.IntN(10) < keep {
					from[j] = r.IntN(oldCols)
					if r.IntN(8) > 0 && j > 0 && from[j-1] >= 0 && from[j-1]+1 < oldCols {
						from[j] = from[j-1] + 1 // mostly runs
					}
				}
			}
			src := make([]byte, rows*oldRow+8)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			dst := make([]byte, rows*newRow+8)
			for i := range dst[:rows*newRow] {
				dst[i] = byte(r.Uint32()) & 0x11
			}
			want := slices.Clone(dst)
			for row := 0; row < rows; row++ {
				for j, k := range from {
					if k >= 0 && bit(src[row*oldRow:], k) {
						want[row*newRow+j/8] |= 1 << (j % 8)
					}
				}
			}
			copyChunks(dst, newRow, src, oldRow, rows, bitChunks(from))
			if !bytes.Equal(dst[:rows*newRow], want[:rows*newRow]) {
				t.Fatalf("keep %d/10, %d -> %d columns, %d rows: copy differs", keep, oldCols, newCols, rows)
			}
		}
	}
}
