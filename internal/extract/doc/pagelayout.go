package doc

import (
	"encoding/binary"

	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// Page estimates of a .doc (wordpage.Layout.Estimate): the binary format
// keeps no rendered page breaks, so the pages of the main document are
// laid out from the page size and margins of the last section's SEPX
// (sprmSXaPage, sprmSYaPage, sprmSDxaLeft, sprmSDxaRight, sprmSDyaTop,
// sprmSDyaBottom, and sprmSDyaLinePitch with a line grid, sprmSClm; the
// SEP defaults where absent: Letter, 1.25-inch sides, 1-inch top and
// bottom) and the font size and paragraph spacing of the Normal style
// (istd 0 of the stylesheet; 10 pt and no spacing without).

// Section and character sprms of the layout (Word 97 opcodes; walkSprms6
// maps the Word 6 ones).
const (
	sprmSXaPage       = 0xB01F
	sprmSYaPage       = 0xB020
	sprmSDxaLeft      = 0xB021
	sprmSDxaRight     = 0xB022
	sprmSDyaTop       = 0x9023
	sprmSDyaBottom    = 0x9024
	sprmSDyaLinePitch = 0x9031
	sprmSClm          = 0x5032
	sprmCHps          = 0x4A43
	sprmPDyaBefore    = 0xA413
	sprmPDyaAfter     = 0xA414
	sprmPDyaLine      = 0x6412
	fcStshf           = 1
)

// estimatePages returns the main document's lines with estimated pages
// and points the reader's page marks (objects' pages) at them.
func (r *reader) estimatePages(fib *fib, table []byte, lines []line) []line {
	lay := docLayout(fib, table, r.papx.word)
	paras := make([]wordpage.Para, len(lines))
	for i, l := range lines {
		paras[i] = wordpage.Para{Text: l.text, Page: l.page, Blank: l.blank}
	}
	est := lay.Estimate(paras)
	marks := make([]mark, 0, len(lines))
	for i := range lines {
		lines[i].page = est[i]
		if len(marks) == 0 || lines[i].cp > marks[len(marks)-1].cp {
			marks = append(marks, mark{cp: lines[i].cp, page: est[i]})
		}
	}
	r.marks = marks
	return lines
}

// docLayout reads the layout of the last section and the Normal style.
func docLayout(fib *fib, table, word []byte) wordpage.Layout {
	lay := wordpage.Layout{PageWidth: 12240, PageHeight: 15840, Left: 1800, Right: 1800, Top: 1440, Bottom: 1440, FontSize: 20}
	le := binary.LittleEndian
	_, data := plc(fib.blob(table, fcPlcfSed), 12)
	if n := len(data); n > 0 {
		fc := int64(le.Uint32(data[n-1][2:]))
		if fc != 0xFFFFFFFF && fc+2 <= int64(len(word)) {
			cb := int64(le.Uint16(word[fc:]))
			if fc+2+cb <= int64(len(word)) {
				pitch, grid := 0, false
				fib.walk(word[fc+2:fc+2+cb], func(op uint16, arg []byte) {
					if len(arg) < 2 && op != sprmSClm {
						return
					}
					v := 0
					if len(arg) >= 2 {
						v = int(int16(le.Uint16(arg)))
					}
					switch op {
					case sprmSXaPage:
						lay.PageWidth = int(le.Uint16(arg))
					case sprmSYaPage:
						lay.PageHeight = int(le.Uint16(arg))
					case sprmSDxaLeft:
						lay.Left = v
					case sprmSDxaRight:
						lay.Right = v
					case sprmSDyaTop:
						lay.Top = abs(v)
					case sprmSDyaBottom:
						lay.Bottom = abs(v)
					case sprmSDyaLinePitch:
						pitch = v
					case sprmSClm:
						grid = len(arg) >= 2 && le.Uint16(arg) != 0
					}
				})
				if grid {
					lay.LinePitch = pitch
				}
			}
		}
	}
	normalStyle(fib, table, &lay)
	return lay
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// normalStyle reads the font size (sprmCHps) and paragraph spacing
// (sprmPDyaBefore, sprmPDyaAfter, sprmPDyaLine with fMultLinespace) of the
// Normal style (istd 0) into lay. The
// stylesheet (STSH, [MS-DOC] 2.9.271): cbStshi and the STSHI (cstd,
// cbSTDBaseInFile), then each style as cbStd and an STD: its base, the
// name (Word 97: a 16-bit count, UTF-16 characters and a NUL; Word 6: a
// byte count, bytes and a NUL), then the UPXs, each a 16-bit cbUPX and its
// bytes at an even offset: for a paragraph style the PAPX (istd, grpprl),
// then the CHPX grpprl.
func normalStyle(fib *fib, table []byte, lay *wordpage.Layout) {
	le := binary.LittleEndian
	st := fib.blob(table, fcStshf)
	if len(st) < 2 {
		return
	}
	cbStshi := int(le.Uint16(st))
	if 2+cbStshi+2 > len(st) || cbStshi < 4 {
		return
	}
	base := int(le.Uint16(st[4:]))
	off := 2 + cbStshi
	cbStd := int(le.Uint16(st[off:]))
	std := st[off+2:]
	if cbStd < base+2 || cbStd > len(std) {
		return
	}
	std = std[:cbStd]
	if std[2]&0x0F != 1 { // sgc: not a paragraph style
		return
	}
	i := base
	if fib.w6 != nil {
		i += 1 + int(std[i]) + 1
	} else {
		i += 2 + 2*int(le.Uint16(std[i:])) + 2
	}
	for u := 0; u < 2; u++ {
		if i%2 != 0 {
			i++
		}
		if i+2 > len(std) {
			return
		}
		cb := int(le.Uint16(std[i:]))
		i += 2
		if i+cb > len(std) {
			return
		}
		g := std[i : i+cb]
		if u == 0 && len(g) >= 2 {
			g = g[2:] // the PAPX's istd
		}
		fib.walk(g, func(op uint16, arg []byte) {
			if len(arg) < 2 {
				return
			}
			v := int(le.Uint16(arg))
			switch {
			case u == 1 && op == sprmCHps:
				lay.FontSize = v
			case u == 0 && op == sprmPDyaBefore:
				lay.Before = v
			case u == 0 && op == sprmPDyaAfter:
				lay.After = v
			case u == 0 && op == sprmPDyaLine && len(arg) >= 4 && le.Uint16(arg[2:]) != 0:
				lay.Line = int(int16(v))
			}
		})
		i += cb
	}
}
