package summary

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// publishSummaryFolder writes files of random words and words of its own
// into the folder rel of the index "案件" and publishes it.
func publishSummaryFolder(t *testing.T, root, rel string, r *rand.Rand, files int) {
	t.Helper()
	dir := filepath.Join(root, "案件", filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < files; f++ {
		var lines []string
		for l := 0; l < 1+r.IntN(20); l++ {
			lines = append(lines, fmt.Sprintf("%s 固有%x語 %s%d", indextest.Words[r.IntN(len(indextest.Words))], r.Uint32(), rel, l))
		}
		places := append(indextest.RandomPlaces(r), extract.Place{Name: "本文", Lines: lines})
		if _, err := content.WriteFolder(filepath.Join(dir, fmt.Sprintf("資料%d.txt", f)), places); err != nil {
			t.Fatal(err)
		}
	}
	if err := publish(dir, nil); err != nil {
		t.Fatal(err)
	}
}

// manyPartsCorpus publishes an index of nested folders with small parts
// (many columns) and returns the content root.
func manyPartsCorpus(t *testing.T) string {
	t.Helper()
	smallParts(t)
	root := filepath.Join(indextest.TempDir(t), "content")
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 24; i++ {
		publishSummaryFolder(t, root, fmt.Sprintf("部%d/課%d", i%4, i), r, 1+i%4)
	}
	return root
}

// withBudget runs write with summaryBudget set to budget.
func withBudget(t *testing.T, budget int, write func()) {
	t.Helper()
	old := summaryBudget
	summaryBudget = budget
	defer func() { summaryBudget = old }()
	write()
}

// writeSummaryBytes writes the summary from scratch and returns its bytes.
func writeSummaryBytes(t *testing.T, root string) []byte {
	t.Helper()
	path := Path(root, "案件")
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
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

// naiveRows sets every key's bits one by one in one matrix: the rows as
// the format defines them, without bands or batches, with the groups of
// the summary b.
func naiveRows(t *testing.T, root string, b []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	nRows, row := le.Uint32(b[20:]), int(le.Uint32(b[32:]))
	_, groups := summaryTables(b)
	col := map[[format.IDSize]byte]int{} // part id -> column
	for g, gr := range groups {
		for _, id := range gr.parts {
			col[id] = g
		}
	}
	dirs := walkForSummary(filepath.Join(root, "案件"))
	rows := make([]byte, int(nRows)*row)
	set := func(j int, k uint32) {
		for h := 0; h < summaryHashes; h++ {
			r := int(summaryRow(k, h, nRows))
			rows[r*row+j/8] |= 1 << (j % 8)
		}
	}
	for i := range dirs {
		for _, ref := range dirs[i].parts {
			path := filepath.Join(root, "案件", relOf(dirs, i), format.PartName(ref.ID))
			k, err := format.OpenKeys(path)
			if err != nil {
				t.Fatal(err)
			}
			keys, err := k.KeysIn(0, 1<<32)
			k.Close()
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < len(keys); n += 4 {
				set(col[ref.ID], binary.LittleEndian.Uint32(keys[n:]))
			}
		}
	}
	for i := range dirs {
		for _, k := range pathKeys(dirs, i) {
			set(len(groups)+i, k)
		}
	}
	for r := 0; r < int(nRows); r++ {
		b := rows[r*row : (r+1)*row]
		binary.LittleEndian.PutUint32(b[row-summaryRowCRC:], crc32.Checksum(b[:row-summaryRowCRC], format.Castagnoli()))
	}
	return rows
}

// TestSummaryBands writes the summary with budgets from one band to bands
// of one block (band sizes that divide the rows and ones that do not) and
// checks that every write gives the same bytes, with the rows the format
// defines.
func TestSummaryBands(t *testing.T) {
	root := manyPartsCorpus(t)
	var whole []byte
	withBudget(t, 1<<40, func() { whole = writeSummaryBytes(t, root) })
	le := binary.LittleEndian
	nRows, row := le.Uint32(whole[20:]), int(le.Uint32(whole[32:]))
	parts, groups := int(le.Uint32(whole[16:])), int(le.Uint32(whole[36:]))
	if parts < 60 || groups < 30 || groups > parts/2 || row < 12 {
		t.Fatalf("corpus too small: %d parts in %d groups, rows of %d bytes", parts, groups, row)
	}
	rowsAt := len(whole) - int(nRows)*row
	if !bytes.Equal(whole[rowsAt:], naiveRows(t, root, whole)) {
		t.Fatal("the rows written in one band differ from the rows set key by key")
	}
	uneven := false
	for _, band := range []int{512, 1024, 1536, 2560, 3000, int(nRows) - summaryBlock} {
		t.Run(fmt.Sprint(band), func(t *testing.T) {
			budget := band * (row + summaryBatch/8)
			withBudget(t, budget, func() {
				m := &summaryMatrix{nRows: nRows, row: row}
				got := m.bandRows()
				if want := band / summaryBlock * summaryBlock; got != want {
					t.Fatalf("budget %d: bands of %d rows, want %d", budget, got, want)
				}
				uneven = uneven || int(nRows)%got != 0
				if b := writeSummaryBytes(t, root); !bytes.Equal(b, whole) {
					t.Errorf("bands of %d rows: %d bytes differ from the one-band write", got, diffCount(b, whole))
				}
			})
		})
	}
	if !uneven {
		t.Error("no band size left a shorter last band")
	}
}

// diffCount counts differing bytes (and the length difference).
func diffCount(a, b []byte) int {
	n := max(len(a), len(b)) - min(len(a), len(b))
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
