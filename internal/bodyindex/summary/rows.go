package summary

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/workspace"
)

// summaryBudget bounds the memory of writing the rows: the rows of one
// band plus the batch of columns being built for it. The rows of a whole
// summary grow with the text (about 5 % of the index: 650 MB at 10 GB),
// so they are written band by band, each band computed from the parts'
// keys and streamed to the temporary file. A variable so that tests can
// make bands small.
var summaryBudget = 48 << 20

// summaryBatch is how many columns are built before they are copied into
// the rows of a band (8 bytes of every row).
const summaryBatch = 64

// summaryMatrix is what the rows are made of: a column per group of
// parts, then one per folder for the paths of its files.
type summaryMatrix struct {
	nRows  uint32
	row    int            // R
	parts  []string       // part files, in the part table's order
	groups []summaryGroup // column j < G
	names  [][]uint32     // keys of the paths of folder i, column G+i
	// old is the summary before, whose columns are copied for the groups
	// it has (reuse.go); nil: every part is read.
	old     *Reader
	from    []int      // column of group j in old, -1: read its parts
	chunks  []bitChunk // from as chunks of consecutive columns
	read    int        // parts read for their keys (test hook)
	counted int        // parts asked for their key counts (test hook)
}

// summaryWritten is a test hook: how many parts the last write read for
// their keys and how many it asked for their key counts.
var summaryWritten = func(read, counted int) {}

// afterSummaryBand is a test hook: the kill test slows the writer down
// so that its SIGKILL lands while the temporary file is being written.
var afterSummaryBand = func() {}

// summaryColumn is one column to compute: from part files or from keys.
type summaryColumn struct {
	j     int
	parts []string
	keys  []uint32
}

// streamSummary writes head and the rows of m to path through the
// workspace's atomic write (temporary file, fsync, rename): a crash
// leaves the old summary or none, and the temporary file goes at the next
// write.
func streamSummary(path string, head []byte, m *summaryMatrix) error {
	f, err := workspace.CreateAtomic(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(head); err != nil {
		f.Abort()
		return err
	}
	if err := m.writeRows(f); err != nil {
		f.Abort()
		return err
	}
	m.dropOld() // not open while the new one is renamed over it (Windows)
	return f.Commit()
}

// bandRows returns how many rows a band has: a multiple of summaryBlock
// within the budget, at least one block, at most all.
func (m *summaryMatrix) bandRows() int {
	per := m.row + summaryBatch/8
	if m.old != nil {
		per += m.old.row // the old rows of the band
	}
	n := summaryBudget / per / summaryBlock * summaryBlock
	return max(summaryBlock, min(n, int(m.nRows)))
}

// writeRows computes the rows band by band, passing over the columns'
// keys once per band, and writes them with their CRCs.
func (m *summaryMatrix) writeRows(w io.Writer) error {
	band := m.bandRows()
	buf := make([]byte, band*m.row+8) // 8: the slack of copyChunks
	var old []byte
	if m.old != nil {
		old = make([]byte, band*m.old.row+8)
	}
	cols := make([][]uint64, summaryBatch)
	for lo := 0; lo < int(m.nRows); lo += band {
		hi := min(lo+band, int(m.nRows))
		rows := buf[:(hi-lo)*m.row]
		clear(rows)
		m.copyOld(rows, old, lo, hi)
		fillBand(rows, m.row, m.nRows, uint32(lo), uint32(hi), m.columns(), cols)
		for r := 0; r < hi-lo; r++ {
			b := rows[r*m.row : (r+1)*m.row]
			binary.LittleEndian.PutUint32(b[m.row-summaryRowCRC:], crc32.Checksum(b[:m.row-summaryRowCRC], format.Castagnoli()))
		}
		if _, err := w.Write(rows); err != nil {
			return err
		}
		afterSummaryBand()
	}
	summaryWritten(m.read, m.counted)
	return nil
}

// columns lists the columns to compute, in column order: the groups not
// copied from the old summary and the folders' paths.
func (m *summaryMatrix) columns() []summaryColumn {
	out := make([]summaryColumn, 0, len(m.groups)+len(m.names))
	m.read = 0
	for j, g := range m.groups {
		if m.old == nil || m.from[j] < 0 {
			out = append(out, summaryColumn{j: j, parts: m.parts[g.first : g.first+g.n]})
			m.read += g.n
		}
	}
	for i, keys := range m.names {
		out = append(out, summaryColumn{j: len(m.groups) + i, keys: keys})
	}
	return out
}

// fillBand sets the bits of the columns in rows lo..hi. Setting them row
// by row would scatter 3 writes per key over the whole band (0.9 s of
// cache misses for 1 GB of text); instead each column is built as a bit
// set of the band's rows (cache-sized), a batch of columns in parallel,
// and a batch is then copied into 64 rows at a time. cols is the batch's
// memory, kept from band to band.
func fillBand(rows []byte, row int, nRows, lo, hi uint32, todo []summaryColumn, cols [][]uint64) {
	words := int(hi-lo) / 64
	for start := 0; start < len(todo); start += summaryBatch {
		end := min(start+summaryBatch, len(todo))
		var next atomic.Int64
		next.Store(int64(start))
		var wg sync.WaitGroup
		for w := 0; w < runtime.GOMAXPROCS(0); w++ {
			wg.Go(func() {
				for {
					k := int(next.Add(1) - 1)
					if k >= end {
						return
					}
					c := cols[k-start]
					if len(c) < words {
						c = make([]uint64, words)
						cols[k-start] = c
					}
					c = c[:words]
					clear(c)
					if todo[k].parts != nil {
						fillGroup(c, todo[k].parts, nRows, lo)
					} else {
						fillKeys(c, todo[k].keys, nRows, lo)
					}
				}
			})
		}
		wg.Wait()
		for w := 0; w < words; w++ {
			for k := start; k < end; k++ {
				x := cols[k-start][w]
				j := todo[k].j
				at, m := w*64*row+j/8, byte(1)<<uint(j%8)
				for x != 0 {
					rows[at+bits.TrailingZeros64(x)*row] |= m
					x &= x - 1
				}
			}
		}
	}
}

// fillKeys sets the rows of keys (sorted) that fall in the band of col
// (rows lo..lo+64·len(col), whole blocks).
func fillKeys(col []uint64, keys []uint32, nRows, lo uint32) {
	from, to := bandKeys(nRows, lo, len(col))
	i, _ := slices.BinarySearch(keys, uint32(from))
	for ; i < len(keys) && uint64(keys[i]) < to; i++ {
		setKeyRows(col, keys[i], nRows, lo)
	}
}

// bandKeys returns the keys whose rows fall in a band: from..to-1.
func bandKeys(nRows, lo uint32, words int) (from, to uint64) {
	return firstKeyOf(lo/summaryBlock, nRows), firstKeyOf((lo+uint32(64*words))/summaryBlock, nRows)
}

// setKeyRows sets the rows of key k that fall in the band of col.
func setKeyRows(col []uint64, k, nRows, lo uint32) {
	n := uint32(64 * len(col))
	for h := 0; h < summaryHashes; h++ {
		if r := summaryRow(k, h, nRows) - lo; r < n {
			col[r/64] |= 1 << (r % 64)
		}
	}
}

// fillGroup sets the rows of the keys of a group's parts in the band of
// col; a part that cannot be read gets its group every row, so that
// searches open it and report it.
func fillGroup(col []uint64, parts []string, nRows, lo uint32) {
	for _, path := range parts {
		if !fillPart(col, path, nRows, lo) {
			for i := range col {
				col[i] = ^uint64(0)
			}
			return
		}
	}
}

// fillPart sets the rows of the part's keys in the band of col, false
// when the part cannot be read.
func fillPart(col []uint64, path string, nRows, lo uint32) bool {
	k, err := format.OpenKeys(path)
	if err != nil {
		return false
	}
	defer k.Close()
	from, to := bandKeys(nRows, lo, len(col))
	keys, err := k.KeysIn(from, to)
	if err != nil {
		return false
	}
	le := binary.LittleEndian
	for i := 0; i < len(keys); i += 4 {
		setKeyRows(col, le.Uint32(keys[i:]), nRows, lo)
	}
	return true
}
