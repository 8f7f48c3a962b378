package xls

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// sheetState is what reading one worksheet substream keeps between
// records.
type sheetState struct {
	s *sheet.Sheet
	// A FORMULA whose result is a string waits for the STRING record.
	pendRow, pendCol, pendXF int
	pending                  bool
	draw                     drawing
	// texts are the text cells of an embedded workbook's sheet
	// (WorkbookText).
	texts []textCell
}

// readSheet reads a worksheet substream (its BOF just read) up to its EOF.
func (b *book) readSheet(s *sheet.Sheet) error {
	st := &sheetState{s: s, draw: newXlsDrawing()}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		typ, data, off, err := b.rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if typ == biff.REOF {
			break
		}
		if typ == biff.RBOF {
			// An embedded chart's substream, after its OBJ record.
			if len(data) >= 4 && biff.Le16(data, 2) == dtChart && st.draw.lastChart() && b.old == 0 {
				c, err := b.readChart(nil)
				if err != nil {
					return err
				}
				st.draw.chart(c)
				continue
			}
			if err := b.skipSubstream(); err != nil {
				return err
			}
			continue
		}
		if b.textOnly {
			if err := b.textRecord(st, typ, data); err != nil {
				return biff.RecordError(typ, off, err)
			}
			continue
		}
		if err := b.sheetRecord(st, typ, data); err != nil {
			return biff.RecordError(typ, off, err)
		}
	}
	if b.textOnly {
		b.texts = st.texts
		return nil
	}
	return st.draw.finish(b, s)
}

// display formats a number with the number format of XF index xf.
func (b *book) number(xf int, v float64) string {
	return b.styles.Format(xf).Number(v, b.date1904)
}

// text applies the text section of XF index xf's format to a string.
func (b *book) text(xf int, v string) string {
	return b.styles.Format(xf).Text(v)
}

// sheetRecord handles one record of a worksheet substream.
func (b *book) sheetRecord(st *sheetState, typ uint16, data []byte) error {
	s := st.s
	if b.old != 0 {
		if handled, err := b.oldRecord(typ, data); handled {
			return err
		}
	}
	st.cellRecord(typ)
	switch typ {
	case biff.RLabelSST, biff.RLabel, biff.RRString, biff.RNumber, biff.RRK, biff.RMulRK, biff.RBoolErr:
		return b.valueRecord(s, typ, data)
	case biff.RFormula, biff.RFormula4, rFormula3, biff.RStr:
		return b.formulaRecord(st, typ, data)
	case biff.RHeader, biff.RFooter:
		b.headerRecord(s, typ, data)
	case biff.RHeaderFtr:
		b.headerFooter(s, data)
	case biff.RMsoDrawing:
		st.draw.drawing(data)
	case biff.RObj:
		st.draw.obj(b, data)
	case biff.RTxO:
		return st.draw.txo(b, data)
	case biff.RNote:
		return st.draw.note(b, data)
	}
	return nil
}

// cellRecord ends the wait for a STRING record at the next cell record.
func (st *sheetState) cellRecord(typ uint16) {
	switch typ {
	case biff.RFormula, biff.RFormula4, rFormula3, biff.RLabelSST, biff.RLabel, biff.RRString, biff.RNumber, biff.RRK, biff.RMulRK, biff.RBoolErr, 0x0201, 0x00BE:
		st.pending = false
	}
}

// cellAt reads the row, column (both 1-based) and XF index that start a
// cell record; ok is false when the record is too short.
func cellAt(data []byte) (row, col, xf int, ok bool) {
	if len(data) < 6 {
		return 0, 0, 0, false
	}
	return biff.Le16(data, 0) + 1, biff.Le16(data, 2) + 1, biff.Le16(data, 4), true
}

// labelString is the string of a LABEL or RSTRING record (BIFF5: a
// 2-byte count and code-page bytes; BIFF8: an XLUnicodeString), whose
// fixed fields the caller has checked.
func (b *book) labelString(data []byte) string {
	if b.biff5 {
		return b.biff5String(data, 6, 2)
	}
	v, _, _ := UnicodeString(data, 6)
	return v
}

// valueRecord stores the value of a cell record: LABELSST, LABEL, RSTRING,
// NUMBER, RK, MULRK or BOOLERR.
func (b *book) valueRecord(s *sheet.Sheet, typ uint16, data []byte) error {
	cell := func() (row, col, xf int, ok bool) { return cellAt(data) }
	switch typ {
	case biff.RLabelSST:
		row, col, xf, ok := cell()
		if !ok || len(data) < 10 {
			return biff.ErrTruncated
		}
		i := int(biff.Le32(data, 6))
		if i < 0 || i >= len(b.sst) {
			return nil
		}
		return s.Cell(row, col, b.text(xf, b.sst[i]))
	case biff.RLabel, biff.RRString:
		row, col, xf, ok := cell()
		if !ok || len(data) < 8 {
			return biff.ErrTruncated
		}
		return s.Cell(row, col, b.text(xf, b.labelString(data)))
	case biff.RNumber:
		row, col, xf, ok := cell()
		if !ok || len(data) < 14 {
			return biff.ErrTruncated
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(data[6:]))
		return s.Cell(row, col, b.number(xf, v))
	case biff.RRK:
		row, col, xf, ok := cell()
		if !ok || len(data) < 10 {
			return biff.ErrTruncated
		}
		return s.Cell(row, col, b.number(xf, biff.RK(biff.Le32(data, 6))))
	case biff.RMulRK:
		// rw, colFirst, (ixfe, RK)*, colLast
		if len(data) < 6 {
			return biff.ErrTruncated
		}
		row, col := biff.Le16(data, 0)+1, biff.Le16(data, 2)+1
		for i := 4; i+6 <= len(data)-2; i += 6 {
			if err := s.Cell(row, col, b.number(biff.Le16(data, i), biff.RK(biff.Le32(data, i+2)))); err != nil {
				return err
			}
			col++
		}
	case biff.RBoolErr:
		row, col, xf, ok := cell()
		if !ok || len(data) < 8 {
			return biff.ErrTruncated
		}
		_ = xf
		if data[7] != 0 {
			return s.Cell(row, col, biff.ErrorText(data[6]))
		}
		return s.Cell(row, col, biff.Bool(data[6] != 0))
	}
	return nil
}

// formulaRecord stores the cached result of a FORMULA record; a string
// result waits for the STRING record that follows it.
func (b *book) formulaRecord(st *sheetState, typ uint16, data []byte) error {
	s := st.s
	cell := func() (row, col, xf int, ok bool) { return cellAt(data) }
	switch typ {
	case biff.RFormula, biff.RFormula4, rFormula3:
		row, col, xf, ok := cell()
		if !ok || len(data) < 14 {
			return biff.ErrTruncated
		}
		if biff.Le16(data, 12) != 0xFFFF {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data[6:]))
			return s.FormulaCell(row, col, b.number(xf, v))
		}
		switch data[6] {
		case 0: // string: the STRING record follows
			st.pendRow, st.pendCol, st.pendXF, st.pending = row, col, xf, true
		case 1:
			return s.FormulaCell(row, col, biff.Bool(data[8] != 0))
		case 2:
			return s.FormulaCell(row, col, biff.ErrorText(data[8]))
		case 3: // empty string
			return s.FormulaCell(row, col, "")
		}
	case biff.RStr:
		v, err := b.stringRecord(data)
		if err != nil {
			return err
		}
		if st.pending {
			st.pending = false
			return s.FormulaCell(st.pendRow, st.pendCol, b.text(st.pendXF, v))
		}
	}
	return nil
}

// headerRecord stores the print header or footer of a HEADER or FOOTER
// record.
func (b *book) headerRecord(s *sheet.Sheet, typ uint16, data []byte) {
	v := b.headerText(data)
	if v == "" {
		return
	}
	if s.Hf.Parts == nil {
		s.Hf.Parts = map[string]string{}
	}
	if typ == biff.RHeader {
		s.Hf.Parts["oddHeader"] = v
	} else {
		s.Hf.Parts["oddFooter"] = v
	}
}

// stringRecord reads a STRING record ([MS-XLS] 2.4.268) and its
// CONTINUE records: the string result of the formula before it.
func (b *book) stringRecord(data []byte) (string, error) {
	segs, err := b.rr.WithContinues(data, b.budget)
	if err != nil {
		return "", err
	}
	data = segs[0] // the reader's buffer now holds the last CONTINUE
	if b.biff5 {
		if len(data) < 2 {
			return "", nil
		}
		n := biff.Le16(data, 0)
		var raw []byte
		c := &Cursor{Segs: segs, P: 2}
		for len(raw) < n && c.Advance() {
			seg := c.Segs[c.Si][c.P:]
			k := min(n-len(raw), len(seg))
			raw = append(raw, seg[:k]...)
			c.P += k
		}
		return b.cp.Decode(raw), nil
	}
	c := &Cursor{Segs: segs}
	cch, ok := c.Uint(2)
	if !ok {
		return "", nil
	}
	flags, ok := c.Byte()
	if !ok {
		return "", nil
	}
	v, _ := c.Chars(int(cch), flags&1 != 0)
	return v, nil
}

// headerText reads a HEADER or FOOTER record ([MS-XLS] 2.4.136, 2.4.124):
// empty, or the text (BIFF5: a byte count and code-page bytes).
func (b *book) headerText(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	if b.biff5 {
		return b.biff5String(data, 0, 1)
	}
	v, _, _ := UnicodeString(data, 0)
	return v
}

// headerFooter reads the HeaderFooter record ([MS-XLS] 2.4.137): the
// even-page and first-page texts and the flags that switch them on.
func (b *book) headerFooter(s *sheet.Sheet, data []byte) {
	const fixed = 12 + 16 + 2 + 8
	if len(data) < fixed {
		return
	}
	flags := biff.Le16(data, 28)
	s.Hf.DifferentOddEven = flags&1 != 0
	s.Hf.DifferentFirst = flags&2 != 0
	if s.Hf.Parts == nil {
		s.Hf.Parts = map[string]string{}
	}
	i := fixed
	for k, name := range []string{"evenHeader", "evenFooter", "firstHeader", "firstFooter"} {
		if biff.Le16(data, 30+2*k) == 0 {
			continue
		}
		v, next, _ := UnicodeString(data, i)
		i = next
		if v != "" {
			s.Hf.Parts[name] = v
		}
	}
}
