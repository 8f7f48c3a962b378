package doc

import (
	"encoding/binary"
)

// Word 6/95 property modifiers and FKP bin tables. A Word 6 sprm is one
// opcode byte and an operand whose size the opcode implies (the table
// below, as LibreOffice's GetWW6SprmSearcher lists it; unknown opcodes
// carry a length byte). walkSprms6 hands the sprms the reader uses to the
// Word 97 code under their Word 97 opcodes, with Word 97 operands, so one
// set of property readers serves both.

// Operand sizes: >0 fixed, 0 none, sprmVar a length byte then that many
// bytes, sprmVar2 a 16-bit cb counting itself less one byte (sprmTDefTable).
const (
	sprmVar  = -1
	sprmVar2 = -2
)

var sprm6Size = func() (t [256]int8) {
	for i := range t {
		t[i] = sprmVar
	}
	set := func(n int8, ops ...int) {
		for _, op := range ops {
			t[op] = n
		}
	}
	span := func(n int8, from, to int) {
		for op := from; op <= to; op++ {
			t[op] = n
		}
	}
	set(0, 0, 52, 83, 163)
	set(1, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 24, 25, 29, 37, 44, 50, 51)
	set(2, 2, 16, 17, 18, 19, 21, 22, 26, 27, 28, 45, 46, 47, 48, 49)
	span(2, 30, 36)
	span(2, 38, 43)
	set(4, 20)
	set(1, 65, 66, 67, 71, 75, 94, 98, 100, 102, 104, 117, 118, 119)
	span(1, 85, 92)
	set(2, 69, 72, 80, 93, 96, 97, 99, 101, 107, 109, 110)
	set(3, 73, 95)
	set(4, 70)
	span(2, 121, 124)
	set(1, 131, 132, 138, 139, 142, 143, 146, 147, 150, 151, 152, 153, 158, 159, 162)
	set(3, 136, 137)
	set(2, 140, 141, 144, 145, 148, 149, 154, 155, 156, 157, 160, 161)
	span(2, 164, 171)
	set(2, 182, 183, 184, 189, 195, 197, 198)
	set(1, 185, 186)
	set(12, 187)
	set(4, 192, 194, 196, 200)
	set(5, 193, 199)
	t[190] = sprmVar2
	return t
}()

// Word 6 opcodes of the sprms the reader uses.
const (
	sprm6PPageBreakBefore = 9
	sprm6PChgTabs         = 23
	sprm6PFInTable        = 24
	sprm6PTtp             = 25
	sprm6CFStrikeRM       = 65 // deleted tracked text
	sprm6CPicLocation     = 68
	sprm6CSymbol          = 74
	sprm6CFOle2           = 75
	sprm6SBkc             = 142
	sprm6SGprfIhdt        = 153
	sprm6CHps             = 99
)

// sprmSGprfIhdt is Word 97's opcode for the section's header bits.
const sprmSGprfIhdt = 0x3019

// walkSprms6 calls fn for the sprms of a Word 6 grpprl that the reader
// uses, translated to Word 97 opcodes and operands; cjk selects the Far
// East variant where sprms 111–113 are two bytes.
func walkSprms6(g []byte, cjk bool, fn func(op uint16, arg []byte)) {
	le := binary.LittleEndian
	for i := 0; i < len(g); {
		op := g[i]
		i++
		n := int(sprm6Size[op])
		if cjk && op >= 111 && op <= 113 {
			n = 2
		}
		switch {
		case op == sprm6PChgTabs && i < len(g) && g[i] == 255:
			n = chgTabsLen(g[i:])
			if n < 0 {
				return
			}
		case n == sprmVar:
			if i >= len(g) {
				return
			}
			n = 1 + int(g[i])
		case n == sprmVar2:
			if i+2 > len(g) {
				return
			}
			n = int(le.Uint16(g[i:])) + 1
		}
		if i+n > len(g) {
			return
		}
		arg := g[i : i+n]
		i += n
		switch op {
		case sprm6PPageBreakBefore:
			fn(sprmPFPageBreakBefore, arg)
		case sprm6PFInTable:
			fn(sprmPFInTable, arg)
		case sprm6PTtp:
			fn(sprmPFTtp, arg)
		case sprm6CFStrikeRM:
			fn(sprmCFRMarkDel, arg)
		case sprm6CFOle2:
			fn(sprmCFOle2, arg)
		case sprm6SBkc:
			fn(sprmSBkc, arg)
		case sprm6SGprfIhdt:
			fn(sprmSGprfIhdt, arg)
		case sprm6CHps:
			fn(sprmCHps, arg)
		case 20, 21, 22: // sprmPDyaLine, sprmPDyaBefore, sprmPDyaAfter
			fn([...]uint16{sprmPDyaLine, sprmPDyaBefore, sprmPDyaAfter}[op-20], arg)
		case 164, 165, 166, 167, 168, 169: // sprmSXaPage … sprmSDyaBottom
			fn([...]uint16{sprmSXaPage, sprmSYaPage, sprmSDxaLeft, sprmSDxaRight, sprmSDyaTop, sprmSDyaBottom}[op-164], arg)
		case sprm6CPicLocation:
			if len(arg) >= 5 {
				fn(sprmCPicLoc, arg[1:5])
			}
		case sprm6CSymbol:
			// cb, ftc, an 8-bit character of the symbol font, which maps
			// to the font's private-use page as in Word 97.
			if len(arg) >= 4 {
				fn(sprmCSymbol, []byte{arg[1], arg[2], arg[3], 0xF0})
			}
		}
	}
}

// walk calls fn for each sprm of a grpprl in the file's sprm format.
func (f *fib) walk(g []byte, fn func(op uint16, arg []byte)) {
	if f.w6 != nil {
		walkSprms6(g, f.w6.cjkSprms, fn)
		return
	}
	walkSprms(g, fn)
}

// newBins6 reads a Word 6 bin table (16-bit page numbers). A fully saved
// file may record fewer bins than its FKP pages (cpn); its pages then are
// the cpn pages from pnFirst on, each covering the FCs of its own runs.
func newBins6(fib *fib, word []byte, fc int) bins {
	b := bins{word: word, w6: fib.w6}
	pnFirst, cpn := fib.w6.pnChpFirst, fib.w6.cpnBteChp
	if fc == fcPlcfBtePapx {
		pnFirst, cpn = fib.w6.pnPapFirst, fib.w6.cpnBtePap
	}
	cps, data := plc(fib.blob(word, fc), 2)
	if !fib.w6.complex && cpn > len(data) && pnFirst > 0 {
		le := binary.LittleEndian
		for pn := pnFirst; pn < pnFirst+cpn; pn++ {
			off := int64(pn) * 512
			if off+512 > int64(len(word)) {
				break
			}
			page := word[off : off+512]
			crun := int(page[511])
			if crun == 0 || 4*(crun+1) > 511 {
				break
			}
			first, last := int64(le.Uint32(page)), int64(le.Uint32(page[4*crun:]))
			if len(b.fcs) > 0 && first < b.fcs[len(b.fcs)-1] || last < first {
				break
			}
			if len(b.fcs) > 0 {
				b.fcs[len(b.fcs)-1] = first
			} else {
				b.fcs = append(b.fcs, first)
			}
			b.fcs = append(b.fcs, last)
			b.pns = append(b.pns, uint32(pn))
		}
		return b
	}
	if len(data) == 0 {
		return b
	}
	b.fcs = make([]int64, len(cps))
	for i, v := range cps {
		b.fcs[i] = int64(uint32(v))
	}
	for _, d := range data {
		b.pns = append(b.pns, uint32(binary.LittleEndian.Uint16(d)))
	}
	return b
}

// bxPap6Size is Word 6's BX: the offset byte and a 6-byte PHE.
const bxPap6Size = 7

// papx6At returns the properties of a Word 6 PAPX at byte bo of an FKP
// page: cw, then cw words (the istd, then the grpprl).
func (p *papx) papx6At(page []byte, bo int) para {
	cw := int(page[bo])
	start, n := bo+1, 2*cw
	if n < 2 || start+n > 511 {
		return para{}
	}
	return parsePapxWith(page[start+2:start+n], nil, func(g []byte, fn func(op uint16, arg []byte)) {
		walkSprms6(g, p.w6.cjkSprms, fn)
	})
}
