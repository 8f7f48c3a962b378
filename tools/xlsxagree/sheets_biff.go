package main

import (
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// BIFF records read here ([MS-XLS] 2.3).
const (
	biffFormula    = 0x0006
	biffFormula4   = 0x0406 // BIFF4's id, which some writers (jxl) still use
	biffEOF        = 0x000A
	biffFilePass   = 0x002F
	biffCodePage   = 0x0042
	biffBoundSheet = 0x0085
	biffBOF        = 0x0809
)

// biffSheets reads the BoundSheet records of the workbook globals
// (BIFF8: Workbook stream, names as XLUnicodeString; BIFF5: Book stream,
// names in the CodePage record's code page) and the Formula records of
// each visible sheet's substream, found at the BoundSheet's offset. An
// encrypted workbook (FilePass) has its states encrypted:
// errUnknownSheets.
func biffSheets(r io.ReaderAt, size int64) ([]sheetInfo, error) {
	doc, err := cfb.Open(r, size)
	if err == nil {
		err = doc.Problem
	}
	if err != nil {
		return nil, err
	}
	var stream []byte
	for _, n := range doc.Nodes {
		e := &doc.Entries[n.ID]
		if len(n.Path) != 0 || !e.IsStream() || !(strings.EqualFold(e.Name(), "Workbook") || strings.EqualFold(e.Name(), "Book")) {
			continue
		}
		if doc.StreamSize(e) > maxPart {
			return nil, errors.New("workbook stream too large")
		}
		if stream, err = io.ReadAll(io.LimitReader(doc.Stream(e), maxPart)); err != nil {
			return nil, err
		}
		break
	}
	if stream == nil {
		return nil, errUnknownSheets
	}
	var s []sheetInfo
	var offsets []int
	biff8 := true
	codepage := 1252
globals:
	for typ, data := range biffRecords(stream, 0) {
		switch typ {
		case biffBOF:
			if len(data) >= 2 {
				biff8 = binary.LittleEndian.Uint16(data) >= 0x0600
			}
		case biffFilePass:
			return nil, errUnknownSheets
		case biffCodePage:
			if len(data) >= 2 {
				codepage = int(binary.LittleEndian.Uint16(data))
			}
		case biffBoundSheet:
			if len(data) >= 7 {
				s = append(s, sheetInfo{name: biffName(data[6:], biff8, codepage), hidden: data[4]&3 != 0})
				offsets = append(offsets, int(binary.LittleEndian.Uint32(data)))
			}
		case biffEOF:
			break globals
		}
	}
	for i := range s {
		if !s[i].hidden {
			s[i].formulas = biffFormulas(stream, offsets[i])
		}
	}
	return s, nil
}

// biffFormulas lists the Formula cells (rw u16, col u16) of the substream
// starting at off, up to its EOF; substreams nested in it (charts) are
// skipped.
func biffFormulas(stream []byte, off int) map[cellPos]bool {
	out := map[cellPos]bool{}
	depth := 0
	for typ, data := range biffRecords(stream, off) {
		switch typ {
		case biffBOF:
			depth++
		case biffEOF:
			depth--
			if depth <= 0 {
				return out
			}
		case biffFormula, biffFormula4:
			if depth == 1 && len(data) >= 4 {
				out[cellPos{int(binary.LittleEndian.Uint16(data)) + 1, int(binary.LittleEndian.Uint16(data[2:])) + 1}] = true
			}
		}
		if depth == 0 {
			return out // no BOF at the offset
		}
	}
	return out
}

// biffRecords iterates the records from off: type u16, size u16, data.
// A truncated record ends the iteration.
func biffRecords(b []byte, off int) func(yield func(int, []byte) bool) {
	return func(yield func(int, []byte) bool) {
		for off >= 0 && off+4 <= len(b) {
			typ := int(binary.LittleEndian.Uint16(b[off:]))
			size := int(binary.LittleEndian.Uint16(b[off+2:]))
			if off+4+size > len(b) {
				return
			}
			if !yield(typ, b[off+4:off+4+size]) {
				return
			}
			off += 4 + size
		}
	}
}

// biffName decodes a BoundSheet name: cch, then (BIFF8) a flags byte
// whose bit 0 means UTF-16LE rather than Latin-1, or (BIFF5) bytes in the
// workbook's code page.
func biffName(b []byte, biff8 bool, codepage int) string {
	n := int(b[0])
	b = b[1:]
	if !biff8 {
		raw := b[:min(n, len(b))]
		dec := charmap.Windows1252.NewDecoder()
		if codepage == 932 {
			dec = japanese.ShiftJIS.NewDecoder()
		}
		if out, err := dec.Bytes(raw); err == nil {
			return string(out)
		}
		return string(raw)
	}
	if len(b) == 0 {
		return ""
	}
	wide := b[0]&1 != 0
	b = b[1:]
	if !wide {
		out, _ := charmap.ISO8859_1.NewDecoder().Bytes(b[:min(n, len(b))])
		return string(out)
	}
	u := make([]uint16, min(n, len(b)/2))
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}
