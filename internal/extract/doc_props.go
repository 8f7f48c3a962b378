package extract

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

// docPara is the paragraph properties the reader uses.
type docPara struct {
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

// docPapx finds paragraph properties through the PlcBtePapx (2.8.6) and
// the 512-byte PapxFkp pages of the WordDocument stream (2.9.175).
type docPapx struct {
	word  []byte
	huge  func(off int64) []byte // the grpprl of sprmPHugePapx at off of the Data stream
	fcs   []int64                // first FC of each FKP, then the end
	pns   []uint32
	cache map[int64]docPara // by FKP page offset × 256 + entry
}

func newDocPapx(fib *docFib, table, word []byte, huge func(off int64) []byte) *docPapx {
	cps, data := plc(fib.blob(table, fcPlcfBtePapx), 4)
	p := &docPapx{word: word, huge: huge, cache: map[int64]docPara{}}
	if len(data) == 0 {
		return p
	}
	p.fcs = make([]int64, len(cps))
	for i, v := range cps {
		p.fcs[i] = int64(uint32(v))
	}
	for _, d := range data {
		p.pns = append(p.pns, binary.LittleEndian.Uint32(d)&0x3FFFFF)
	}
	return p
}

// at returns the properties of the paragraph holding the byte at fc.
func (p *docPapx) at(fc int64) docPara {
	if fc < 0 || len(p.pns) == 0 {
		return docPara{}
	}
	i := sort.Search(len(p.pns), func(i int) bool { return p.fcs[i+1] > fc }) // first bin ending after fc
	if i == len(p.pns) || p.fcs[i] > fc {
		return docPara{}
	}
	off := int64(p.pns[i]) * 512
	if off+512 > int64(len(p.word)) {
		return docPara{}
	}
	page := p.word[off : off+512]
	crun := int(page[511])
	if crun == 0 || 4*(crun+1)+13*crun > 511 {
		return docPara{}
	}
	le := binary.LittleEndian
	j := sort.Search(crun, func(j int) bool { return int64(le.Uint32(page[4*(j+1):])) > fc })
	if j == crun || int64(le.Uint32(page[4*j:])) > fc {
		return docPara{}
	}
	key := off*256 + int64(j)
	if v, ok := p.cache[key]; ok {
		return v
	}
	var v docPara
	if bo := 2 * int(page[4*(crun+1)+13*j]); bo != 0 && bo < 511 {
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
func parsePapx(g []byte, huge func(off int64) []byte) docPara {
	var v docPara
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

// docSections maps the CP just after each section mark to whether that
// section's break starts a new page (sprmSBkc of the section ending there
// is not 0, continuous; no sprm means a new page).
func docSections(fib *docFib, table, word []byte) map[int64]bool {
	cps, data := plc(fib.blob(table, fcPlcfSed), 12)
	out := map[int64]bool{}
	le := binary.LittleEndian
	for i, d := range data {
		newPage := true
		fc := int64(le.Uint32(d[2:]))
		if fc != 0xFFFFFFFF && fc+2 <= int64(len(word)) {
			cb := int64(le.Uint16(word[fc:]))
			if fc+2+cb <= int64(len(word)) {
				walkSprms(word[fc+2:fc+2+cb], func(op uint16, arg []byte) {
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

// docChar is the character properties the reader uses.
type docChar struct {
	deleted bool   // sprmCFRMarkDel: deleted tracked text
	symbol  uint16 // sprmCSymbol: the character a 0x28 stands for
	ole     bool   // sprmCFOle2: a 0x01 is an embedded OLE object
	picLoc  uint32 // sprmCPicLocation: with ole, the ObjectPool storage number
}

// docChpx finds character properties through the PlcBteChpx (2.8.5) and
// the 512-byte ChpxFkp pages (2.9.33); the run found last is kept, as text
// is read in order.
type docChpx struct {
	word     []byte
	fcs      []int64
	pns      []uint32
	from, to int64 // the cached run [from, to)
	cur      docChar
}

func newDocChpx(fib *docFib, table, word []byte) *docChpx {
	cps, data := plc(fib.blob(table, fcPlcfBteChpx), 4)
	c := &docChpx{word: word, from: 1, to: 0}
	if len(data) == 0 {
		return c
	}
	c.fcs = make([]int64, len(cps))
	for i, v := range cps {
		c.fcs[i] = int64(uint32(v))
	}
	for _, d := range data {
		c.pns = append(c.pns, binary.LittleEndian.Uint32(d)&0x3FFFFF)
	}
	return c
}

// at returns the properties of the character at byte offset fc.
func (c *docChpx) at(fc int64) docChar {
	if fc >= c.from && fc < c.to {
		return c.cur
	}
	c.cur, c.from, c.to = docChar{}, fc, fc+1
	if fc < 0 || len(c.pns) == 0 {
		return c.cur
	}
	i := sort.Search(len(c.pns), func(i int) bool { return c.fcs[i+1] > fc })
	if i == len(c.pns) || c.fcs[i] > fc {
		return c.cur
	}
	off := int64(c.pns[i]) * 512
	if off+512 > int64(len(c.word)) {
		return c.cur
	}
	page := c.word[off : off+512]
	crun := int(page[511])
	if crun == 0 || 4*(crun+1)+crun > 511 {
		return c.cur
	}
	le := binary.LittleEndian
	j := sort.Search(crun, func(j int) bool { return int64(le.Uint32(page[4*(j+1):])) > fc })
	if j == crun || int64(le.Uint32(page[4*j:])) > fc {
		return c.cur
	}
	c.from, c.to = int64(le.Uint32(page[4*j:])), int64(le.Uint32(page[4*(j+1):]))
	if bo := 2 * int(page[4*(crun+1)+j]); bo != 0 && bo < 511 {
		cb := int(page[bo])
		if bo+1+cb <= 511 {
			walkSprms(page[bo+1:bo+1+cb], func(op uint16, arg []byte) {
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
