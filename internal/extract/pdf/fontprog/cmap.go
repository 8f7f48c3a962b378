package fontprog

import "encoding/binary"

// cmapTable is one cmap subtable of format 0, 4, 6 or 12 (OpenType
// "cmap"): lookup gives a code's glyph (0: none), each walks its pairs.
type cmapTable struct {
	format uint16
	b      []byte
}

func parseCmapTable(b []byte) cmapTable {
	if len(b) < 4 {
		return cmapTable{}
	}
	t := cmapTable{format: binary.BigEndian.Uint16(b), b: b}
	switch t.format {
	case 0:
		if len(b) < 6+256 {
			return cmapTable{}
		}
	case 4:
		if len(b) < 14 {
			return cmapTable{}
		}
		seg := int(binary.BigEndian.Uint16(b[6:])) / 2
		if len(b) < 16+8*seg {
			return cmapTable{}
		}
	case 6:
		if len(b) < 10 || len(b) < 10+2*int(binary.BigEndian.Uint16(b[8:])) {
			return cmapTable{}
		}
	case 12:
		if len(b) < 16 || uint64(len(b)) < 16+12*uint64(binary.BigEndian.Uint32(b[12:])) {
			return cmapTable{}
		}
	default:
		return cmapTable{}
	}
	return t
}

func (t cmapTable) ok() bool { return t.b != nil }

func (t cmapTable) lookup(code uint32) int {
	gid := 0
	t.walk(func(c uint32, g int) bool {
		if c == code {
			gid = g
			return false
		}
		return true
	}, code, true)
	return gid
}

func (t cmapTable) each(f func(code uint32, gid int)) {
	t.walk(func(c uint32, g int) bool { f(c, g); return true }, 0, false)
}

// maxCmapPairs bounds the pairs one subtable is walked for (a format 12
// table can claim ranges of the whole code space).
const maxCmapPairs = 1 << 17

// walk calls f for the subtable's pairs (only those for code when one is
// set) until f returns false.
func (t cmapTable) walk(f func(code uint32, gid int) bool, code uint32, one bool) {
	b := t.b
	u16 := func(i int) int { return int(binary.BigEndian.Uint16(b[i:])) }
	pairs := 0
	emit := func(c uint32, g int) bool {
		pairs++
		return pairs <= maxCmapPairs && f(c, g)
	}
	switch t.format {
	case 0:
		for c := range 256 {
			if (!one || uint32(c) == code) && b[6+c] != 0 && !emit(uint32(c), int(b[6+c])) {
				return
			}
		}
	case 4:
		seg := u16(6) / 2
		ends, starts, deltas, ranges := 14, 16+2*seg, 16+4*seg, 16+6*seg
		for i := range seg {
			end, start := u16(ends+2*i), u16(starts+2*i)
			delta, ro := u16(deltas+2*i), u16(ranges+2*i)
			if start > end {
				continue
			}
			lo, hi := start, end
			if one {
				if int(code) < start || int(code) > end {
					continue
				}
				lo, hi = int(code), int(code)
			}
			for c := lo; c <= hi; c++ {
				g := 0
				if ro == 0 {
					g = (c + delta) & 0xffff
				} else {
					at := ranges + 2*i + ro + 2*(c-start)
					if at+2 > len(b) {
						continue
					}
					if g = u16(at); g != 0 {
						g = (g + delta) & 0xffff
					}
				}
				if g != 0 && c != 0xffff && !emit(uint32(c), g) {
					return
				}
			}
		}
	case 6:
		first, n := u16(6), u16(8)
		for i := range n {
			c := uint32(first + i)
			if (!one || c == code) && u16(10+2*i) != 0 && !emit(c, u16(10+2*i)) {
				return
			}
		}
	case 12:
		n := int(binary.BigEndian.Uint32(b[12:]))
		for i := range n {
			g := b[16+12*i:]
			start, end := binary.BigEndian.Uint32(g), binary.BigEndian.Uint32(g[4:])
			gid := binary.BigEndian.Uint32(g[8:])
			if start > end || end > 0x10ffff {
				continue
			}
			lo, hi := start, end
			if one {
				if code < start || code > end {
					continue
				}
				lo, hi = code, code
			}
			for c := lo; c <= hi; c++ {
				if !emit(c, int(gid+c-start)) {
					return
				}
			}
		}
	}
}
