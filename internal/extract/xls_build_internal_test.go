package extract

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
	"unicode/utf16"
)

// Builders for .xls test inputs: BIFF records written by hand into a
// minimal compound file ([MS-CFB] version 3, 512-byte sectors, one FAT
// sector, streams of at least 4,096 bytes so no mini stream is needed).

// cfbFile packs root-level streams into a compound file.
func cfbFile(tb testing.TB, streams map[string][]byte) []byte {
	tb.Helper()
	const sec = 512
	names := make([]string, 0, len(streams))
	for n := range streams {
		names = append(names, n)
	}
	// Sort for a stable file.
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	type placed struct {
		name  string
		data  []byte
		start uint32
	}
	fat := []uint32{0xFFFFFFFD, 0xFFFFFFFE} // sector 0 FAT, sector 1 directory
	var body []placed
	next := uint32(2)
	for _, n := range names {
		d := streams[n]
		if len(d) < 4096 {
			d = append(append([]byte(nil), d...), make([]byte, 4096-len(d))...)
			// The zero padding reads as empty records of type 0.
		}
		nsec := (len(d) + sec - 1) / sec
		body = append(body, placed{n, d, next})
		for k := 0; k < nsec; k++ {
			if k == nsec-1 {
				fat = append(fat, 0xFFFFFFFE)
			} else {
				fat = append(fat, next+uint32(k)+1)
			}
		}
		next += uint32(nsec)
	}
	if len(fat) > sec/4 {
		tb.Fatalf("cfbFile: %d sectors do not fit one FAT sector", len(fat))
	}
	for len(fat) < sec/4 {
		fat = append(fat, 0xFFFFFFFF)
	}
	le := binary.LittleEndian
	h := make([]byte, sec)
	copy(h, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le.PutUint16(h[24:], 0x003E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], 1)          // FAT sectors
	le.PutUint32(h[48:], 1)          // first directory sector
	le.PutUint32(h[56:], 4096)       // mini stream cutoff
	le.PutUint32(h[60:], 0xFFFFFFFE) // no mini FAT
	le.PutUint32(h[68:], 0xFFFFFFFE) // no DIFAT sectors
	for i := 0; i < 109; i++ {
		le.PutUint32(h[76+4*i:], 0xFFFFFFFF)
	}
	le.PutUint32(h[76:], 0)
	var out bytes.Buffer
	out.Write(h)
	fs := make([]byte, sec)
	for i, v := range fat {
		le.PutUint32(fs[4*i:], v)
	}
	out.Write(fs)
	// Directory: root, then the streams as a right-leaning chain of
	// siblings (a valid, if unbalanced, red-black tree: all black).
	dir := make([]byte, sec)
	entry := func(i int, name string, typ byte, left, right, child, start uint32, size int) {
		e := dir[128*i : 128*(i+1)]
		u := utf16.Encode([]rune(name))
		for k, c := range u {
			le.PutUint16(e[2*k:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66] = typ
		e[67] = 1
		le.PutUint32(e[68:], left)
		le.PutUint32(e[72:], right)
		le.PutUint32(e[76:], child)
		le.PutUint32(e[116:], start)
		le.PutUint32(e[120:], uint32(size))
	}
	if len(body) > 3 {
		tb.Fatal("cfbFile: at most 3 streams")
	}
	entry(0, "Root Entry", 5, 0xFFFFFFFF, 0xFFFFFFFF, 1, 0xFFFFFFFE, 0)
	for i, p := range body {
		right := uint32(0xFFFFFFFF)
		if i+1 < len(body) {
			right = uint32(i + 2)
		}
		entry(i+1, p.name, 2, 0xFFFFFFFF, right, 0xFFFFFFFF, p.start, len(p.data))
	}
	for i := len(body) + 1; i < 4; i++ {
		e := dir[128*i : 128*(i+1)]
		le.PutUint32(e[68:], 0xFFFFFFFF)
		le.PutUint32(e[72:], 0xFFFFFFFF)
		le.PutUint32(e[76:], 0xFFFFFFFF)
	}
	out.Write(dir)
	for _, p := range body {
		d := p.data
		if r := len(d) % sec; r != 0 {
			d = append(d, make([]byte, sec-r)...)
		}
		out.Write(d)
	}
	return out.Bytes()
}

// biff collects records of a workbook stream.
type biff struct {
	buf bytes.Buffer
}

// rec appends one record; parts are []byte, string (raw bytes), or
// integers written little-endian by their Go size.
func (b *biff) rec(typ uint16, parts ...any) *biff {
	d := biffData(parts...)
	var h [4]byte
	binary.LittleEndian.PutUint16(h[:], typ)
	binary.LittleEndian.PutUint16(h[2:], uint16(len(d)))
	b.buf.Write(h[:])
	b.buf.Write(d)
	return b
}

func (b *biff) pos() uint32 { return uint32(b.buf.Len()) }

func biffData(parts ...any) []byte {
	var d bytes.Buffer
	for _, p := range parts {
		switch v := p.(type) {
		case []byte:
			d.Write(v)
		case string:
			d.WriteString(v)
		case uint8:
			d.WriteByte(v)
		case uint16:
			binary.Write(&d, binary.LittleEndian, v)
		case uint32:
			binary.Write(&d, binary.LittleEndian, v)
		case int:
			binary.Write(&d, binary.LittleEndian, uint16(v))
		case float64:
			binary.Write(&d, binary.LittleEndian, math.Float64bits(v))
		default:
			panic("biffData: unsupported part")
		}
	}
	return d.Bytes()
}

// u16s is a string as UTF-16LE bytes.
func u16s(s string) []byte {
	var d []byte
	for _, c := range utf16.Encode([]rune(s)) {
		d = append(d, byte(c), byte(c>>8))
	}
	return d
}

// xlStr is an XLUnicodeString: 2-byte count, flag, characters (UTF-16
// when the string is not Latin-1).
func xlStr(s string) []byte {
	r := []rune(s)
	high := false
	for _, c := range r {
		if c > 0xFF {
			high = true
		}
	}
	d := biffData(uint16(len(utf16.Encode(r))))
	if high {
		return append(append(d, 1), u16s(s)...)
	}
	d = append(d, 0)
	for _, c := range r {
		d = append(d, byte(c))
	}
	return d
}

// shortStr is a ShortXLUnicodeString (1-byte count).
func shortStr(s string) []byte {
	d := xlStr(s)
	return append([]byte{d[0]}, d[2:]...)
}

// rkInt is the RK encoding of a 30-bit integer (×100 when x100).
func rkInt(v int32, x100 bool) uint32 {
	r := uint32(v)<<2 | 2
	if x100 {
		r |= 1
	}
	return r
}

// xlsSheetSpec describes one sheet of a built workbook.
type xlsSheetSpec struct {
	name  string
	state uint8 // hsState
	dt    uint8
	body  func(b *biff)
}

// buildBIFF8 writes a workbook stream: globals (extra records first, then
// XFs for the given number formats, BoundSheets, SST) and the sheets.
// xfFmts[i] is the ifmt of XF i.
func buildBIFF8(globals func(b *biff), xfFmts []int, sst []byte, sheets []xlsSheetSpec) []byte {
	var g biff
	g.rec(xlsRBOF, 0x0600, 0x0005, 0, 0, uint32(0), uint32(0))
	if globals != nil {
		globals(&g)
	}
	for _, f := range xfFmts {
		g.rec(xlsRXF, 0, f, make([]byte, 16))
	}
	// BoundSheet offsets are patched once the globals' length is known.
	bsAt := make([]int, len(sheets))
	for i, s := range sheets {
		bsAt[i] = g.buf.Len() + 4
		g.rec(xlsRBoundSheet, uint32(0), s.state, s.dt, shortStr(s.name))
	}
	if sst != nil {
		g.buf.Write(sst)
	}
	g.rec(xlsREOF)
	out := g.buf.Bytes()
	for i, s := range sheets {
		binary.LittleEndian.PutUint32(out[bsAt[i]:], uint32(len(out)))
		var sb biff
		sb.rec(xlsRBOF, 0x0600, 0x0010, 0, 0, uint32(0), uint32(0))
		if s.body != nil {
			s.body(&sb)
		}
		sb.rec(xlsREOF)
		out = append(out, sb.buf.Bytes()...)
	}
	return out
}

// sstRecords writes an SST record and its CONTINUE records from the raw
// pieces: the first piece goes into the SST after its 8-byte header, each
// later piece into one CONTINUE record.
func sstRecords(total, unique uint32, pieces ...[]byte) []byte {
	var b biff
	b.rec(xlsRSST, total, unique, pieces[0])
	for _, p := range pieces[1:] {
		b.rec(xlsRContinue, p)
	}
	return b.buf.Bytes()
}
