package bodyindex

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// A run that changed a few folders changes a few parts; the others keep
// their ids (which name their bytes), so their columns in the summary
// before are the columns a fresh write would compute. Reading them back
// (one sequential pass over the old rows) replaces reading every part's
// keys (the key sections of the whole index, cold on a file server). The
// result is the bytes a fresh write gives; where a copied column could be
// wrong, the part is read instead:
//   - the old summary is not reused at all unless its header and tables
//     are whole (openSummary) and it has the same row count and hashes;
//   - a part whose file is gone from its folder is read (and fails);
//   - a column that is all ones in the first band (a part that could not
//     be read then, or one dense enough) is read;
//   - from the first band whose old rows fail their CRC on, every part is
//     read (the bands before were copied from whole rows).

// bitRun is a run of consecutive columns copied from consecutive columns
// of the old summary.
type bitRun struct{ to, from, n int }

// keepColumns maps the parts to the columns of the old summary that a
// fresh write would give them (m.from), before the row count is chosen:
// the parts it lists whose files are still there, unless their column is
// all ones in its first rows (a part that could not be read then, and may
// be now: its key count then is not its count now either).
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
	at := make(map[[idSize]byte]int, len(o.parts))
	for j, id := range o.parts {
		if _, ok := at[id]; !ok && !full[j] {
			at[id] = j
		}
	}
	m.from = make([]int, len(parts.ids))
	for j, id := range parts.ids {
		m.from[j] = -1
		if k, ok := at[id]; ok && !parts.gone[j] {
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
		m.runs = bitRuns(m.from)
	}
}

// fullColumns reports the columns whose bits are all set in the first
// 1024 rows (every summary has that many), false when they cannot be read
// whole. A part's column with 10 bits per key is never that dense; one
// that is gets read, which costs only time.
func (s *Summary) fullColumns() (map[int]bool, bool) {
	buf := make([]byte, 1024*s.row)
	if _, err := s.f.ReadAt(buf, s.rows); err != nil {
		return nil, false
	}
	and := bytes.Repeat([]byte{0xFF}, s.row-summaryRowCRC)
	for r := 0; r < len(buf); r += s.row {
		b := buf[r : r+s.row]
		if crc32.Checksum(b[:s.row-summaryRowCRC], castagnoli()) != binary.LittleEndian.Uint32(b[s.row-summaryRowCRC:]) {
			return nil, false
		}
		for i := range and {
			and[i] &= b[i]
		}
	}
	full := map[int]bool{}
	for j := range s.parts {
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
		if crc32.Checksum(b[:o.row-summaryRowCRC], castagnoli()) != binary.LittleEndian.Uint32(b[o.row-summaryRowCRC:]) {
			m.dropOld()
			return
		}
	}
	for r := 0; r < hi-lo; r++ {
		d, s := rows[r*m.row:(r+1)*m.row], src[r*o.row:(r+1)*o.row]
		for _, run := range m.runs {
			orBits(d, run.to, s, run.from, run.n)
		}
	}
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

// orBits ORs n bits of src from bit s into dst from bit d (bit i of a
// slice is bit i%8 of byte i/8): 56 bits at a time through 8-byte words
// while both slices have 8 bytes left, then a destination byte at a time.
func orBits(dst []byte, d int, src []byte, s, n int) {
	le := binary.LittleEndian
	for n >= 56 && s/8+8 <= len(src) && d/8+8 <= len(dst) {
		v := le.Uint64(src[s/8:]) >> uint(s%8) & (1<<56 - 1)
		le.PutUint64(dst[d/8:], le.Uint64(dst[d/8:])|v<<uint(d%8))
		d, s, n = d+56, s+56, n-56
	}
	for n > 0 {
		k := min(8-d%8, n) // the bits that go into dst's byte d/8
		i, sh := s/8, uint(s%8)
		v := uint(src[i]) >> sh
		if int(sh)+k > 8 {
			v |= uint(src[i+1]) << (8 - sh)
		}
		dst[d/8] |= byte(v&(1<<k-1)) << uint(d%8)
		d, s, n = d+k, s+k, n-k
	}
}

// maxPartKeys returns the most keys a part has (partKeyCount) and the
// least id among the parts with that many, which choose the row count and
// go into the header. A part kept from the old summary (from[j] >= 0) has
// the count it had then (its id names its bytes): when the old summary's
// record names a kept part, that part stands for every kept one and none
// is opened; otherwise every part is counted.
func maxPartKeys(parts summaryParts, from []int, rec keyRecord, counted *int) keyRecord {
	best := keyRecord{max: -1, known: true}
	consider := func(n int, id [idSize]byte) {
		if n > best.max || n == best.max && bytes.Compare(id[:], best.id[:]) < 0 {
			best.max, best.id = n, id
		}
	}
	kept := func(j int) bool { return from != nil && from[j] >= 0 }
	useRecord := rec.known && rec.max == 0 // then every kept part has 0
	for j, id := range parts.ids {
		useRecord = useRecord || rec.known && kept(j) && id == rec.id
	}
	for j, id := range parts.ids {
		switch {
		case useRecord && kept(j) && rec.max == 0:
			consider(0, id)
		case useRecord && kept(j):
			consider(rec.max, rec.id)
		default:
			*counted++
			consider(partKeyCount(parts.paths[j]), id)
		}
	}
	if best.max < 0 {
		return keyRecord{known: true}
	}
	return best
}
