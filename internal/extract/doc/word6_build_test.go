package doc

import (
	"encoding/binary"
	"testing"

	"golang.org/x/text/encoding"

	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// A Word 6/95 document written byte by byte from the FIB layout of
// word6.go, for the tests: LibreOffice reads the format but no longer
// writes it. The WordDocument stream holds, in order: the FIB, the text
// of every story (main, footnotes, headers; then the guard paragraph
// mark), a CHPX and a PAPX FKP page, and the PLCs, the SEPX and the DOP.

// w6Spec describes one document. Stories are UTF-8 strings with Word's
// marks: \r paragraph end, \a cell end (a cell end followed by \a alone
// is the row end), \f page break, \x02 the footnote reference.
type w6Spec struct {
	lid     uint16
	enc     encoding.Encoding // text code page
	main    string
	ftn     string // one footnote, referenced by the \x02 of main
	header  string // odd header of the one section
	footer  string // odd footer
	complex bool   // fast-saved: the text in two pieces of a CLX, apart
	font    string // font 0 (SttbfFfn), the default font of the text
	charset byte   // its character set (128 Shift_JIS)
	nFib    uint16 // 0: 104 (Word 95)
	extChar bool   // fExtChar: 16-bit units, a double-byte code in one
}

// w6Para is one paragraph or cell of the stories: its byte range and
// whether it is a table cell or row end.
type w6Para struct {
	from, to  int // CPs
	cell, ttp bool
}

// w6Encode encodes s into CP units: its bytes, or with ext one unit per
// character (a double-byte code lead byte high).
func w6Encode(tb testing.TB, enc encoding.Encoding, s string, ext bool) []uint16 {
	tb.Helper()
	var out []uint16
	for _, r := range s {
		b, err := enc.NewEncoder().Bytes([]byte(string(r)))
		if err != nil {
			tb.Fatalf("encode %q: %v", r, err)
		}
		switch {
		case ext && len(b) == 2:
			out = append(out, uint16(b[0])<<8|uint16(b[1]))
		default:
			for _, c := range b {
				out = append(out, uint16(c))
			}
		}
	}
	return out
}

func w6Index(u []uint16, c uint16) int {
	for i, x := range u {
		if x == c {
			return i
		}
	}
	return -1
}

// w6Paras splits CP-space bytes into paragraphs at \r and \a; an \a
// directly after an \a ends the row.
func w6Paras(text []uint16) []w6Para {
	var out []w6Para
	start := 0
	for i, c := range text {
		if c != '\r' && c != '\a' {
			continue
		}
		p := w6Para{from: start, to: i + 1}
		if c == '\a' {
			p.cell = true
			p.ttp = i == start && i > 0 && text[i-1] == '\a'
		}
		out = append(out, p)
		start = i + 1
	}
	return out
}

func buildWord6(tb testing.TB, s w6Spec) []byte {
	tb.Helper()
	le := binary.LittleEndian
	main := w6Encode(tb, s.enc, s.main, s.extChar)
	ftn := w6Encode(tb, s.enc, s.ftn, s.extChar)
	hdr := w6Encode(tb, s.enc, s.header, s.extChar)
	ftr := w6Encode(tb, s.enc, s.footer, s.extChar)
	var hdd []uint16
	if len(hdr)+len(ftr) > 0 {
		hdd = append(append(append([]uint16{}, hdr...), ftr...), '\r')
	}
	if len(ftn) > 0 {
		ftn = append(ftn, '\r')
	}
	text := append(append(append(append([]uint16{}, main...), ftn...), hdd...), '\r')
	unit := 1
	if s.extChar {
		unit = 2
	}
	ser := func(u []uint16) []byte {
		var b []byte
		for _, x := range u {
			if unit == 2 {
				b = le.AppendUint16(b, x)
			} else {
				b = append(b, byte(x))
			}
		}
		return b
	}

	const fcMin = 1024
	w := make([]byte, fcMin)
	// The text, in one piece or (complex) two pieces with a gap.
	split := len(text)
	if s.complex {
		for split = len(main) / 2; split > 0 && main[split-1] != '\r'; split-- {
		}
	}
	w = append(w, ser(text[:split])...)
	gap := 0
	if s.complex {
		gap = 16
		w = append(w, make([]byte, gap)...)
		w = append(w, ser(text[split:])...)
	}
	fcOf := func(cp int) int {
		if cp >= split {
			return fcMin + unit*cp + gap
		}
		return fcMin + unit*cp
	}
	fcMac := len(w)
	pad := func() {
		for len(w)%512 != 0 {
			w = append(w, 0)
		}
	}

	// CHPX FKP: runs split around each \x02.
	pad()
	chpPN := len(w) / 512
	var cfc []int
	var cprop []byte
	cfc = append(cfc, fcOf(0))
	for cp, c := range text {
		if c == 0x02 {
			if fcOf(cp) != cfc[len(cfc)-1] {
				cfc, cprop = append(cfc, fcOf(cp)), append(cprop, 0)
			}
			cfc, cprop = append(cfc, fcOf(cp)+unit), append(cprop, 1)
		}
	}
	if end := fcOf(len(text)-1) + unit; end != cfc[len(cfc)-1] {
		cfc, cprop = append(cfc, end), append(cprop, 0)
	}
	page := make([]byte, 512)
	for i, fc := range cfc {
		le.PutUint32(page[4*i:], uint32(fc))
	}
	crun := len(cfc) - 1
	// CHPXs: sprmCFtc 0 (font 0, whose character set LibreOffice decodes
	// the run by), and with sprmCFSpec for the reference marks.
	plain, spec := 496, 484
	copy(page[plain:], []byte{7, 93, 0, 0, 73, 1, 128, 0})
	copy(page[spec:], []byte{9, 93, 0, 0, 73, 1, 128, 0, 117, 1})
	for j := 0; j < crun; j++ {
		at := plain
		if cprop[j] == 1 {
			at = spec
		}
		page[4*(crun+1)+j] = byte(at / 2)
	}
	page[511] = byte(crun)
	w = append(w, page...)
	chpFirst, chpLast := cfc[0], cfc[len(cfc)-1]

	// PAPX FKP: one run per paragraph; PAPX cw, istd, sprms 24/25.
	papPN := len(w) / 512
	page = make([]byte, 512)
	paras := w6Paras(text)
	if len(paras)*11+4 > 360 {
		tb.Fatalf("buildWord6: %d paragraphs do not fit one FKP", len(paras))
	}
	papxAt := map[string]int{}
	free := 510
	papx := func(sprms ...byte) int {
		key := string(sprms)
		if off, ok := papxAt[key]; ok {
			return off
		}
		body := append([]byte{0, 0}, sprms...) // istd 0
		if len(body)%2 != 0 {
			body = append(body, 0)
		}
		b := append([]byte{byte(len(body) / 2)}, body...)
		free -= len(b)
		if free%2 != 0 {
			free--
		}
		copy(page[free:], b)
		papxAt[key] = free
		return free
	}
	// Runs: one per paragraph, ending after its mark; a piece gap gets a
	// run of its own.
	rfc := []int{fcOf(paras[0].from)}
	var roff []int
	for j, p := range paras {
		if from := fcOf(p.from); from != rfc[len(rfc)-1] {
			rfc, roff = append(rfc, from), append(roff, papx())
		}
		var off int
		switch {
		case p.ttp:
			// sprmTDefTable: cb, itcMac, rgdxaCenter, rgtc (10 bytes each).
			cells := 0
			for k := j - 1; k >= 0 && paras[k].cell && !paras[k].ttp; k-- {
				cells++
			}
			def := []byte{0, 0, byte(cells)}
			for k := 0; k <= cells; k++ {
				def = le.AppendUint16(def, uint16(k*2000))
			}
			def = append(def, make([]byte, 10*cells)...)
			le.PutUint16(def, uint16(len(def)-1))
			off = papx(append([]byte{24, 1, 25, 1, 190}, def...)...)
		case p.cell:
			off = papx(24, 1)
		default:
			off = papx()
		}
		rfc, roff = append(rfc, fcOf(p.to-1)+unit), append(roff, off)
	}
	n := len(roff)
	for j, fc := range rfc {
		le.PutUint32(page[4*j:], uint32(fc))
	}
	for j, off := range roff {
		page[4*(n+1)+7*j] = byte(off / 2)
	}
	page[511] = byte(n)
	w = append(w, page...)
	papFirst, papLast := fcOf(paras[0].from), int(le.Uint32(page[4*n:]))

	// The PLCs.
	pairs := map[int][2]int{}
	put := func(idx int, b []byte) {
		pairs[idx] = [2]int{len(w), len(b)}
		w = append(w, b...)
	}
	u32s := func(vs ...int) []byte {
		var b []byte
		for _, v := range vs {
			b = le.AppendUint32(b, uint32(v))
		}
		return b
	}
	put(fcPlcfBteChpx, le.AppendUint16(u32s(chpFirst, chpLast), uint16(chpPN)))
	put(fcPlcfBtePapx, le.AppendUint16(u32s(papFirst, papLast), uint16(papPN)))
	ccpText := len(main)
	// One section, its SEPX: sprmSGprfIhdt with the odd header and footer.
	var bits byte
	if len(hdr) > 0 {
		bits |= 0x02
	}
	if len(ftr) > 0 {
		bits |= 0x08
	}
	sepx := len(w)
	w = append(w, 2, 0, 153, bits)
	sed := u32s(0, ccpText)
	sed = append(sed, 0, 0)
	sed = le.AppendUint32(sed, uint32(sepx))
	sed = append(sed, 0, 0, 0, 0, 0, 0)
	put(fcPlcfSed, sed)
	if len(hdd) > 0 {
		var cps []int
		cps = append(cps, 0)
		if len(hdr) > 0 {
			cps = append(cps, cps[len(cps)-1]+len(hdr))
		}
		if len(ftr) > 0 {
			cps = append(cps, cps[len(cps)-1]+len(ftr))
		}
		cps = append(cps, len(hdd))
		put(fcPlcfHdd, u32s(cps...))
	}
	if len(ftn) > 0 {
		ref := w6Index(main, 0x02)
		put(2, append(u32s(ref, ccpText), 1, 0)) // PlcffndRef, FRD nAuto 1
		put(3, u32s(0, len(ftn)-1, len(ftn)))    // PlcffndTxt
	}
	put(fcDop, make([]byte, 84))
	// The stylesheet (pair 1): STSHI, then the Normal paragraph style in
	// font 0 (LibreOffice decodes unformatted text by the style's font).
	stsh := le.AppendUint16(nil, 14)
	stsh = append(stsh, 1, 0, 8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0) // cstd 1, cbSTDBase 8, …
	std := []byte{0, 0, 0xF1, 0xFF, 2, 0, 26, 0, 6, 'N', 'o', 'r', 'm', 'a', 'l', 0}
	std = append(std, 2, 0, 0, 0)        // UPX papx: istd 0
	std = append(std, 3, 0, 93, 0, 0, 0) // UPX chpx: sprmCFtc 0, padding
	stsh = append(le.AppendUint16(stsh, uint16(len(std))), std...)
	put(1, stsh)
	if s.font != "" {
		// SttbfFfn (pair 15): its size, then one FFN: cbFfnM1, prq/ff,
		// wWeight, chs, ixchSzAlt, the name and its NUL.
		name, err := s.enc.NewEncoder().Bytes([]byte(s.font))
		if err != nil {
			tb.Fatal(err)
		}
		ffn := []byte{byte(len(name) + 6), 0x16, 0x90, 0x01, s.charset, 0}
		ffn = append(append(ffn, name...), 0)
		put(15, append(le.AppendUint16(nil, uint16(2+len(ffn))), ffn...))
	}
	if s.complex {
		var clx []byte
		clx = append(clx, 2)
		plcPcd := u32s(0, split, len(text))
		for _, fc := range []int{fcOf(0), fcOf(split)} {
			plcPcd = append(plcPcd, 0, 0)
			plcPcd = le.AppendUint32(plcPcd, uint32(fc))
			plcPcd = append(plcPcd, 0, 0)
		}
		clx = le.AppendUint32(clx, uint32(len(plcPcd)))
		put(fcClx, append(clx, plcPcd...))
	}

	// The FIB.
	nFib := s.nFib
	if nFib == 0 {
		nFib = 104
	}
	le.PutUint16(w[0:], 0xA5DC)
	le.PutUint16(w[2:], nFib)
	le.PutUint16(w[4:], 0x8000|nFib) // nProduct
	le.PutUint16(w[6:], s.lid)
	var flags uint16
	if s.complex {
		flags |= 0x0004
	}
	if s.extChar {
		flags |= 0x1000
	}
	le.PutUint16(w[10:], flags)
	le.PutUint16(w[12:], nFib) // nFibBack
	le.PutUint32(w[24:], fcMin)
	le.PutUint32(w[28:], uint32(fcMac))
	le.PutUint32(w[32:], uint32(len(w))) // cbMac
	for i, v := range []int{len(main), len(ftn), len(hdd)} {
		le.PutUint32(w[52+4*i:], uint32(v))
	}
	for idx, p := range pairs {
		off := 88 + 8*idx
		if idx >= 38 {
			off = 402 + 8*(idx-38)
		}
		le.PutUint32(w[off:], uint32(p[0]))
		le.PutUint32(w[off+4:], uint32(p[1]))
	}
	le.PutUint16(w[394:], uint16(chpPN))
	le.PutUint16(w[396:], uint16(papPN))
	le.PutUint16(w[398:], 1)
	le.PutUint16(w[400:], 1)
	return fixture.CfbFile(tb, map[string][]byte{"WordDocument": w})
}
