package summary

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"slices"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
)

// A run that changed a few folders changes a few parts; the others keep
// their ids (which name their bytes), and a group of the same parts has
// the same id (groupID), so its column in the summary before is the
// column a fresh write would compute. Reading it back (one sequential
// pass over the old rows) replaces reading the keys of every part (the
// key sections of the whole index, cold on a file server). The result is
// the bytes a fresh write gives; where a copied column could be wrong,
// the group's parts are read instead:
//   - the old summary is not reused at all unless its header and tables
//     are whole (openSummary) and it has the same row count and hashes;
//   - a group with a part whose file is gone from its folder is read (and
//     fails);
//   - a column that is all ones in the first band (a part that could not
//     be read then, or one dense enough) is read;
//   - from the first band whose old rows fail their CRC on, every group
//     is read (the bands before were copied from whole rows).

// bitRun is a run of consecutive columns copied from consecutive columns
// of the old summary.
type bitRun struct{ to, from, n int }

// keepColumns maps the groups to the columns of the old summary that a
// fresh write would give them (m.from), before the row count is chosen:
// the groups it has whose parts' files are all still there, unless their
// column is all ones in its first rows (a part that could not be read
// then, and may be now: its key count then is not its count now either).
func (m *summaryMatrix) keepColumns(parts summaryParts) {
	o := m.old
	if o == nil {
		return
	}
	full, ok := o.fullColumns()
	if !ok {
		m.dropOld()
		return
	}
	at := make(map[[format.IDSize]byte]int, len(o.groups))
	for j, id := range o.groupIDs() {
		if _, ok := at[id]; !ok && !full[j] {
			at[id] = j
		}
	}
	m.from = make([]int, len(m.groups))
	for j, g := range m.groups {
		m.from[j] = -1
		if k, ok := at[g.id]; ok && !slices.Contains(parts.gone[g.first:g.first+g.n], true) {
			m.from[j] = k
		}
	}
}

// planReuse keeps the old summary for its rows when they have the row
// count and hashes chosen, else drops it.
func (m *summaryMatrix) planReuse() {
	if o := m.old; o != nil && (o.nRows != m.nRows || o.hash != summaryHashes) {
		m.dropOld()
	}
	if m.old != nil {
		m.chunks = bitChunks(m.from)
	}
}

// fullColumns reports the group columns whose bits are all set in the
// first 1024 rows (every summary has that many), false when they cannot
// be read whole. A group's column with 10 bits per key is never that
// dense; one that is gets read, which costs only time.
func (s *Reader) fullColumns() (map[int]bool, bool) {
	buf := make([]byte, 1024*s.row)
	if _, err := s.f.ReadAt(buf, s.rows); err != nil {
		return nil, false
	}
	and := bytes.Repeat([]byte{0xFF}, s.row-summaryRowCRC)
	for r := 0; r < len(buf); r += s.row {
		b := buf[r : r+s.row]
		if crc32.Checksum(b[:s.row-summaryRowCRC], format.Castagnoli()) != binary.LittleEndian.Uint32(b[s.row-summaryRowCRC:]) {
			return nil, false
		}
		for i := range and {
			and[i] &= b[i]
		}
	}
	full := map[int]bool{}
	for j := range s.groups {
		if and[j/8]&(1<<(j%8)) != 0 {
			full[j] = true
		}
	}
	return full, true
}

// dropOld closes the old summary: from now on every part is read.
func (m *summaryMatrix) dropOld() {
	if m.old != nil {
		m.old.Close()
		m.old = nil
	}
}

// copyOld copies the kept columns of rows lo..hi from the old summary
// into rows, using buf for the old rows; it drops the old summary when
// they cannot be read whole.
func (m *summaryMatrix) copyOld(rows, buf []byte, lo, hi int) {
	o := m.old
	if o == nil {
		return
	}
	src := buf[:(hi-lo)*o.row]
	if _, err := o.f.ReadAt(src, o.rows+int64(lo)*int64(o.row)); err != nil {
		m.dropOld()
		return
	}
	for r := 0; r < hi-lo; r++ {
		b := src[r*o.row : (r+1)*o.row]
		if crc32.Checksum(b[:o.row-summaryRowCRC], format.Castagnoli()) != binary.LittleEndian.Uint32(b[o.row-summaryRowCRC:]) {
			m.dropOld()
			return
		}
	}
	copyChunks(rows[:len(rows)+8], m.row, buf[:len(src)+8], o.row, hi-lo, m.chunks)
}

// bitRuns groups the kept columns into runs.
func bitRuns(from []int) []bitRun {
	var runs []bitRun
	for j, k := range from {
		if k < 0 {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].to+runs[n-1].n == j && runs[n-1].from+runs[n-1].n == k {
			runs[n-1].n++
			continue
		}
		runs = append(runs, bitRun{to: j, from: k, n: 1})
	}
	return runs
}

// bitChunk copies up to 56 bits of a row: from bit ss of byte sb of an
// old row to bit ds of byte db of a new row, through one 8-byte word.
type bitChunk struct {
	sb, db int
	ss, ds uint8
	mask   uint64
}

// bitChunks cuts the runs of kept columns into chunks.
func bitChunks(from []int) []bitChunk {
	var chunks []bitChunk
	for _, run := range bitRuns(from) {
		for c := 0; c < run.n; c += 56 {
			k, s, d := min(56, run.n-c), run.from+c, run.to+c
			chunks = append(chunks, bitChunk{sb: s / 8, ss: uint8(s % 8), db: d / 8, ds: uint8(d % 8), mask: 1<<k - 1})
		}
	}
	return chunks
}

// copyChunks ORs the chunks of n rows of src (sRow bytes each) into the
// rows of dst (dRow bytes each); both have 8 bytes after their last row,
// as a chunk reads and writes whole words (it ORs zeros outside its
// bits). A kept column per row costs a few instructions however short
// its run, and rows go in blocks that stay in the cache.
func copyChunks(dst []byte, dRow int, src []byte, sRow int, n int, chunks []bitChunk) {
	le := binary.LittleEndian
	const block = 256
	for r0 := 0; r0 < n; r0 += block {
		r1 := min(r0+block, n)
		for _, c := range chunks {
			for r := r0; r < r1; r++ {
				v := le.Uint64(src[r*sRow+c.sb:]) >> c.ss & c.mask
				p := dst[r*dRow+c.db:]
				le.PutUint64(p, le.Uint64(p)|v<<c.ds)
			}
		}
	}
}

// maxGroupKeys returns the most keys a group has (the sum of its parts'
// format.PartKeyCount) and the least id among the groups with that many, which
// choose the row count and go into the header. A group kept from the old
// summary (from[g] >= 0) has the count it had then (its id names its
// parts): when the old summary's record names a kept group, that group
// stands for every kept one and none of their parts is opened; otherwise
// every part is counted.
func maxGroupKeys(parts summaryParts, groups []summaryGroup, from []int, rec keyRecord, counted *int) keyRecord {
	best := keyRecord{max: -1}
	consider := func(n int, id [format.IDSize]byte) {
		if n > best.max || n == best.max && bytes.Compare(id[:], best.id[:]) < 0 {
			best.max, best.id = n, id
		}
	}
	kept := func(g int) bool { return from != nil && from[g] >= 0 }
	useRecord := false
	for g := range groups {
		useRecord = useRecord || kept(g) && groups[g].id == rec.id
	}
	for g, gr := range groups {
		if useRecord && kept(g) {
			consider(rec.max, rec.id)
			continue
		}
		n := 0
		for _, path := range parts.paths[gr.first : gr.first+gr.n] {
			*counted++
			n += format.PartKeyCount(path)
		}
		consider(n, gr.id)
	}
	if best.max < 0 {
		return keyRecord{}
	}
	return best
}
