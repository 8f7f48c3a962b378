package main

import (
	"encoding/binary"
	"unicode/utf16"
)

// XLSB records read here ([MS-XLSB] 2.3, 2.4).
const (
	brtRowHdr     = 0x0000
	brtFmlaString = 0x0008
	brtFmlaNum    = 0x0009
	brtFmlaBool   = 0x000A
	brtFmlaError  = 0x000B
	brtBundleSh   = 0x009C
)

// xlsbSheets reads the BrtBundleSh records of workbook.bin (hsState u32,
// iTabID u32, strRelID nullable wide string, strName wide string) and
// each visible sheet's formula cells.
func xlsbSheets(k pkg, b []byte, targets map[string]string) ([]sheetInfo, error) {
	var s []sheetInfo
	for typ, data := range xlsbRecords(b) {
		if typ != brtBundleSh || len(data) < 12 {
			continue
		}
		state := binary.LittleEndian.Uint32(data)
		rid, rest := wideString(data[8:])
		if rest == nil {
			continue
		}
		name, rest := wideString(rest)
		if rest == nil {
			continue
		}
		st := sheetInfo{name: name, hidden: state == 1 || state == 2}
		if part := targets[rid]; part != "" && !st.hidden {
			if sb, err := k.read(part); err == nil {
				st.formulas = xlsbFormulas(sb)
			}
		}
		s = append(s, st)
	}
	if s == nil {
		return nil, errUnknownSheets
	}
	return s, nil
}

// xlsbFormulas lists the formula cells of a sheet part: BrtRowHdr gives
// the row (u32, 0-based), a BrtFmla* cell record the column (u32).
func xlsbFormulas(b []byte) map[cellPos]bool {
	out := map[cellPos]bool{}
	row := 0
	for typ, data := range xlsbRecords(b) {
		if len(data) < 4 {
			continue
		}
		switch typ {
		case brtRowHdr:
			row = int(binary.LittleEndian.Uint32(data))
		case brtFmlaString, brtFmlaNum, brtFmlaBool, brtFmlaError:
			out[cellPos{row + 1, int(binary.LittleEndian.Uint32(data)) + 1}] = true
		}
	}
	return out
}

// xlsbRecords iterates the records of an XLSB part: type and size are
// each up to 2 and 4 bytes of 7 bits, low first. A truncated record ends
// the iteration.
func xlsbRecords(b []byte) func(yield func(int, []byte) bool) {
	return func(yield func(int, []byte) bool) {
		for len(b) > 0 {
			typ, n := varint(b, 2)
			if n == 0 {
				return
			}
			size, m := varint(b[n:], 4)
			if m == 0 || size > len(b)-n-m {
				return
			}
			data := b[n+m : n+m+size]
			b = b[n+m+size:]
			if !yield(typ, data) {
				return
			}
		}
	}
}

// varint reads an XLSB record type or size: up to max bytes of 7 bits,
// low first. n is 0 when b ends first.
func varint(b []byte, max int) (v, n int) {
	for n < max {
		if n >= len(b) {
			return 0, 0
		}
		v |= int(b[n]&0x7F) << (7 * n)
		n++
		if b[n-1]&0x80 == 0 {
			return v, n
		}
	}
	return v, n
}

// wideString reads a u32 count and that many UTF-16LE units (0xFFFFFFFF:
// null). rest is nil when b is too short.
func wideString(b []byte) (s string, rest []byte) {
	if len(b) < 4 {
		return "", nil
	}
	n := binary.LittleEndian.Uint32(b)
	if n == 0xFFFFFFFF {
		return "", b[4:]
	}
	if uint64(len(b)-4) < 2*uint64(n) {
		return "", nil
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[4+2*i:])
	}
	return string(utf16.Decode(u)), b[4+2*n:]
}
