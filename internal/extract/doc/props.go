package doc

import (
	"encoding/binary"
	"sort"
)

// Word binary structures beyond the text: PLCs, paragraph properties from
// the PAPX FKPs, and section break kinds ([MS-DOC] 2.2.2, 2.4.6, 2.8, 2.9).

// plc splits a PLC (2.2.2): n+1 CPs followed by n data elements of size
// bytes each. A PLC whose length does not fit is cut to the elements it
// holds whole.
func plc(b []byte, size int) (cps []int64, data [][]byte) {
	if len(b) < 4 {
		return nil, nil
	}
	n := (len(b) - 4) / (4 + size)
	le := binary.LittleEndian
	cps = make([]int64, n+1)
	for i := range cps {
		cps[i] = int64(int32(le.Uint32(b[4*i:])))
	}
	data = make([][]byte, n)
	base := 4 * (n + 1)
	for i := range data {
		data[i] = b[base+size*i : base+size*(i+1)]
	}
	return cps, data
}

// para is the paragraph properties the reader uses.
type para struct {
	inTable         bool // sprmPFInTable
	ttp             bool // sprmPFTtp: the row-end mark of a table row
	itap            int  // table depth (sprmPItap, sprmPDtap)
	innerCell       bool // sprmPFInnerTableCell: a nested table's cell end
	innerTtp        bool // sprmPFInnerTtp: a nested table's row end
	pageBreakBefore bool // sprmPFPageBreakBefore
}

// Paragraph and section sprms (2.6.2, 2.6.4).
const (
	sprmPFPageBreakBefore = 0x2407
	sprmPFInTable         = 0x2416
	sprmPFTtp             = 0x2417
	sprmPFInnerTableCell  = 0x244B
	sprmPFInnerTtp        = 0x244C
	sprmPItap             = 0x6649
	sprmPDtap             = 0x664A
	sprmPHugePapx         = 0x6646
	sprmSBkc              = 0x3009
	sprmTDefTable         = 0xD608
	sprmPChgTabs          = 0xC615
)

// walkSprms calls fn for each Prl of a grpprl (2.6), stopping at the
// first one that does not fit.
func walkSprms(g []byte, fn func(op uint16, arg []byte)) {
	le := binary.LittleEndian
	for i := 0; i+2 <= len(g); {
		op := le.Uint16(g[i:])
		i += 2
		var n int
		switch op >> 13 {
		case 0, 1:
			n = 1
		case 2, 4, 5:
			n = 2
		case 3:
			n = 4
		case 7:
			n = 3
		case 6:
			switch {
			case op == sprmTDefTable:
				if i+2 > len(g) {
					return
				}
				n = int(le.Uint16(g[i:])) + 1 // cb counts itself minus one byte
			case op == sprmPChgTabs && i < len(g) && g[i] == 255:
				n = chgTabsLen(g[i:])
				if n < 0 {
					return
				}
			default:
				if i >= len(g) {
					return
				}
				n = 1 + int(g[i])
			}
		}
		if i+n > len(g) {
			return
		}
		fn(op, g[i:i+n])
		i += n
	}
}

// chgTabsLen is the operand length of sprmPChgTabs with cb 255
// (PChgTabsOperand, 2.9.185): cb, PChgTabsDelClose, PChgTabsAdd.
func chgTabsLen(b []byte) int {
	n := 1
	if n >= len(b) {
		return -1
	}
	del := int(b[n])
	n += 1 + 4*del
	if n >= len(b) {
		return -1
	}
	add := int(b[n])
	n += 1 + 3*add
	return n
}

// bins is a bin table, PlcBtePapx (2.8.6) or PlcBteChpx (2.8.5): the
// first FC of each 512-byte FKP page of the WordDocument stream, then the
// end, and the page numbers.
type bins struct {
	word []byte
	fcs  []int64 // first FC of each FKP, then the end
	pns  []uint32
	w6   *fib6 // Word 6/95: other PAPX and sprms (word6_sprm.go)
}

func newDocBins(fib *fib, table, word []byte, fc int) bins {
	if fib.w6 != nil {
		return newBins6(fib, word, fc)
	}
	cps, data := plc(fib.blob(table, fc), 4)
	b := bins{word: word}
	if len(data) == 0 {
		return b
	}
	b.fcs = make([]int64, len(cps))
	for i, v := range cps {
		b.fcs[i] = int64(uint32(v))
	}
	for _, d := range data {
		b.pns = append(b.pns, binary.LittleEndian.Uint32(d)&0x3FFFFF)
	}
	return b
}

// Sizes of the entry after a page's FC array that points to a run's
// properties.
const (
	bxPapSize = 13 // BxPap: the offset byte and 12 reserved bytes
	chpxBSize = 1  // ChpxFkp rgb: the offset byte
)

// run is the run of an FKP page (PapxFkp 2.9.175, ChpxFkp 2.9.33) that
// holds an FC.
type run struct {
	page     []byte // the 512-byte page
	off      int64  // the page's offset in the WordDocument stream
	j        int    // the run's index on the page
	from, to int64  // the run's FCs [from, to)
	props    int    // offset of the run's properties on the page; 0 for none
}

// run finds the run holding the byte at fc; entry is the size of the
// page's per-run entries (bxPapSize, chpxBSize). ok is false when
// no bin, page or run holds fc.
func (b *bins) run(fc int64, entry int) (r run, ok bool) {
	if fc < 0 || len(b.pns) == 0 {
		return run{}, false
	}
	i := sort.Search(len(b.pns), func(i int) bool { return b.fcs[i+1] > fc }) // first bin ending after fc
	if i == len(b.pns) || b.fcs[i] > fc {
		return run{}, false
	}
	off := int64(b.pns[i]) * 512
	if off+512 > int64(len(b.word)) {
		return run{}, false
	}
	page := b.word[off : off+512]
	crun := int(page[511])
	if crun == 0 || 4*(crun+1)+entry*crun > 511 {
		return run{}, false
	}
	le := binary.LittleEndian
	j := sort.Search(crun, func(j int) bool { return int64(le.Uint32(page[4*(j+1):])) > fc })
	if j == crun || int64(le.Uint32(page[4*j:])) > fc {
		return run{}, false
	}
	return run{
		page:  page,
		off:   off,
		j:     j,
		from:  int64(le.Uint32(page[4*j:])),
		to:    int64(le.Uint32(page[4*(j+1):])),
		props: 2 * int(page[4*(crun+1)+entry*j]),
	}, true
}

// papx finds paragraph properties through the PlcBtePapx (2.8.6) and
// the 512-byte PapxFkp pages of the WordDocument stream (2.9.175).
type papx struct {
	bins
	huge  func(off int64) []byte // the grpprl of sprmPHugePapx at off of the Data stream
	cache map[int64]para         // by FKP page offset × 256 + entry
}

func newDocPapx(fib *fib, table, word []byte, huge func(off int64) []byte) *papx {
	return &papx{bins: newDocBins(fib, table, word, fcPlcfBtePapx), huge: huge, cache: map[int64]para{}}
}

// at returns the properties of the paragraph holding the byte at fc.
func (p *papx) at(fc int64) para {
	entry := bxPapSize
	if p.w6 != nil {
		entry = bxPap6Size
	}
	r, ok := p.run(fc, entry)
	if !ok {
		return para{}
	}
	key := r.off*256 + int64(r.j)
	if v, ok := p.cache[key]; ok {
		return v
	}
	var v para
	if bo := r.props; bo != 0 && bo < 511 && p.w6 != nil {
		v = p.papx6At(r.page, bo)
	} else if bo != 0 && bo < 511 {
		page := r.page
		cb := int(page[bo])
		start, n := bo+1, 2*cb-1
		if cb == 0 && bo+1 < 511 {
			start, n = bo+2, 2*int(page[bo+1])
		}
		if n >= 2 && start+n <= 511 {
			v = parsePapx(page[start+2:start+n], p.huge) // after the istd
		}
	}
	p.cache[key] = v
	return v
}

// parsePapx reads the paragraph sprms of a grpprl. sprmPHugePapx points
// into the Data stream at a 16-bit size and a grpprl too long for an FKP,
// typically a table row's definitions with its flags; huge reads it (nil
// when there is none).
func parsePapx(g []byte, huge func(off int64) []byte) para {
	return parsePapxWith(g, huge, walkSprms)
}

// parsePapxWith is parsePapx with the grpprl's sprm format.
func parsePapxWith(g []byte, huge func(off int64) []byte, walkSprms func([]byte, func(uint16, []byte))) para {
	var v para
	var apply func(op uint16, arg []byte)
	apply = func(op uint16, arg []byte) {
		switch op {
		case sprmPHugePapx:
			if huge != nil {
				walkSprms(huge(int64(binary.LittleEndian.Uint32(arg))), func(op uint16, arg []byte) {
					if op != sprmPHugePapx {
						apply(op, arg)
					}
				})
			}
		case sprmPFInTable:
			v.inTable = arg[0] != 0
		case sprmPFTtp:
			v.ttp = arg[0] != 0
		case sprmPFInnerTableCell:
			v.innerCell = arg[0] != 0
		case sprmPFInnerTtp:
			v.innerTtp = arg[0] != 0
		case sprmPFPageBreakBefore:
			v.pageBreakBefore = arg[0] != 0
		case sprmPItap:
			v.itap = int(int32(binary.LittleEndian.Uint32(arg)))
		case sprmPDtap:
			v.itap += int(int32(binary.LittleEndian.Uint32(arg)))
		}
	}
	walkSprms(g, apply)
	if v.itap < 0 || v.itap > 64 {
		v.itap = 1
	}
	if v.inTable && v.itap == 0 {
		v.itap = 1
	}
	if !v.inTable {
		v.itap = 0
	}
	return v
}

// sections maps the CP just after each section mark to whether that
// section's break starts a new page (sprmSBkc of the section ending there
// is not 0, continuous; no sprm means a new page).
func sections(fib *fib, table, word []byte) map[int64]bool {
	cps, data := plc(fib.blob(table, fcPlcfSed), 12)
	out := map[int64]bool{}
	le := binary.LittleEndian
	for i, d := range data {
		newPage := true
		fc := int64(le.Uint32(d[2:]))
		if fc != 0xFFFFFFFF && fc+2 <= int64(len(word)) {
			cb := int64(le.Uint16(word[fc:]))
			if fc+2+cb <= int64(len(word)) {
				fib.walk(word[fc+2:fc+2+cb], func(op uint16, arg []byte) {
					if op == sprmSBkc {
						newPage = arg[0] != 0
					}
				})
			}
		}
		out[cps[i+1]] = newPage
	}
	return out
}

// Character sprms (2.6.1).
const (
	sprmCFRMarkDel = 0x0800
	sprmCSymbol    = 0x6A09
	sprmCFOle2     = 0x080A
	sprmCPicLoc    = 0x6A03
)

// char is the character properties the reader uses.
type char struct {
	deleted bool   // sprmCFRMarkDel: deleted tracked text
	symbol  uint16 // sprmCSymbol: the character a 0x28 stands for
	ole     bool   // sprmCFOle2: a 0x01 is an embedded OLE object
	picLoc  uint32 // sprmCPicLocation: with ole, the ObjectPool storage number
}

// chpx finds character properties through the PlcBteChpx (2.8.5) and
// the 512-byte ChpxFkp pages (2.9.33); the run found last is kept, as text
// is read in order.
type chpx struct {
	bins
	from, to int64 // the cached run [from, to)
	cur      char
}

func newDocChpx(fib *fib, table, word []byte) *chpx {
	return &chpx{bins: newDocBins(fib, table, word, fcPlcfBteChpx), from: 1, to: 0}
}

// at returns the properties of the character at byte offset fc.
func (c *chpx) at(fc int64) char {
	if fc >= c.from && fc < c.to {
		return c.cur
	}
	c.cur, c.from, c.to = char{}, fc, fc+1
	r, ok := c.run(fc, chpxBSize)
	if !ok {
		return c.cur
	}
	le := binary.LittleEndian
	c.from, c.to = r.from, r.to
	if bo := r.props; bo != 0 && bo < 511 {
		page := r.page
		cb := int(page[bo])
		if bo+1+cb <= 511 {
			walk := walkSprms
			if c.w6 != nil {
				walk = func(g []byte, fn func(uint16, []byte)) { walkSprms6(g, c.w6.cjkSprms, fn) }
			}
			walk(page[bo+1:bo+1+cb], func(op uint16, arg []byte) {
				switch op {
				case sprmCFRMarkDel:
					c.cur.deleted = arg[0]&1 != 0
				case sprmCSymbol:
					c.cur.symbol = le.Uint16(arg[2:])
				case sprmCFOle2:
					c.cur.ole = arg[0]&1 != 0
				case sprmCPicLoc:
					c.cur.picLoc = le.Uint32(arg)
				}
			})
		}
	}
	return c.cur
}
