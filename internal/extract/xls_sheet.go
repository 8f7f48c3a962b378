package extract

import (
	"encoding/binary"
	"io"
	"math"
)

// xlsSheetState is what reading one worksheet substream keeps between
// records.
type xlsSheetState struct {
	s *xlsSheet
	// A FORMULA whose result is a string waits for the STRING record.
	pendRow, pendCol, pendXF int
	pending                  bool
	draw                     xlsDrawing
}

// readSheet reads a worksheet substream (its BOF just read) up to its EOF.
func (b *xlsBook) readSheet(s *xlsSheet) error {
	st := &xlsSheetState{s: s, draw: newXlsDrawing()}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		typ, data, off, err := b.rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if typ == xlsREOF {
			break
		}
		if typ == xlsRBOF {
			// An embedded chart's substream, after its OBJ record.
			if len(data) >= 4 && le16(data, 2) == xlsDtChart && st.draw.lastChart() {
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
		if err := b.sheetRecord(st, typ, data); err != nil {
			return xlsRecordError(typ, off, err)
		}
	}
	return st.draw.finish(b, s)
}

// display formats a number with the number format of XF index xf.
func (b *xlsBook) number(xf int, v float64) string {
	return b.styles.format(xf).number(v, b.date1904)
}

// text applies the text section of XF index xf's format to a string.
func (b *xlsBook) text(xf int, v string) string {
	return b.styles.format(xf).text(v)
}

// sheetRecord handles one record of a worksheet substream.
func (b *xlsBook) sheetRecord(st *xlsSheetState, typ uint16, data []byte) error {
	s := st.s
	if typ != xlsRStr && typ != xlsRContinue {
		switch typ {
		case xlsRFormula, xlsRFormula4, xlsRLabelSST, xlsRLabel, xlsRRString, xlsRNumber, xlsRRK, xlsRMulRK, xlsRBoolErr, 0x0201, 0x00BE:
			st.pending = false
		}
	}
	cell := func() (row, col, xf int, ok bool) {
		if len(data) < 6 {
			return 0, 0, 0, false
		}
		return le16(data, 0) + 1, le16(data, 2) + 1, le16(data, 4), true
	}
	switch typ {
	case xlsRLabelSST:
		row, col, xf, ok := cell()
		if !ok || len(data) < 10 {
			return errXlsTruncated
		}
		i := int(le32(data, 6))
		if i < 0 || i >= len(b.sst) {
			return nil
		}
		return s.cell(row, col, b.text(xf, b.sst[i]))
	case xlsRLabel, xlsRRString:
		row, col, xf, ok := cell()
		if !ok || len(data) < 8 {
			return errXlsTruncated
		}
		var v string
		if b.biff5 {
			v = b.biff5String(data, 6, 2)
		} else {
			v, _, _ = xlsUnicodeString(data, 6)
		}
		return s.cell(row, col, b.text(xf, v))
	case xlsRNumber:
		row, col, xf, ok := cell()
		if !ok || len(data) < 14 {
			return errXlsTruncated
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(data[6:]))
		return s.cell(row, col, b.number(xf, v))
	case xlsRRK:
		row, col, xf, ok := cell()
		if !ok || len(data) < 10 {
			return errXlsTruncated
		}
		return s.cell(row, col, b.number(xf, xlsRK(le32(data, 6))))
	case xlsRMulRK:
		// rw, colFirst, (ixfe, RK)*, colLast
		if len(data) < 6 {
			return errXlsTruncated
		}
		row, col := le16(data, 0)+1, le16(data, 2)+1
		for i := 4; i+6 <= len(data)-2; i += 6 {
			if err := s.cell(row, col, b.number(le16(data, i), xlsRK(le32(data, i+2)))); err != nil {
				return err
			}
			col++
		}
	case xlsRBoolErr:
		row, col, xf, ok := cell()
		if !ok || len(data) < 8 {
			return errXlsTruncated
		}
		_ = xf
		if data[7] != 0 {
			return s.cell(row, col, xlsErrorText(data[6]))
		}
		return s.cell(row, col, xlsBool(data[6] != 0))
	case xlsRFormula, xlsRFormula4:
		row, col, xf, ok := cell()
		if !ok || len(data) < 14 {
			return errXlsTruncated
		}
		if le16(data, 12) != 0xFFFF {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data[6:]))
			return s.formulaCell(row, col, b.number(xf, v))
		}
		switch data[6] {
		case 0: // string: the STRING record follows
			st.pendRow, st.pendCol, st.pendXF, st.pending = row, col, xf, true
		case 1:
			return s.formulaCell(row, col, xlsBool(data[8] != 0))
		case 2:
			return s.formulaCell(row, col, xlsErrorText(data[8]))
		case 3: // empty string
			return s.formulaCell(row, col, "")
		}
	case xlsRStr:
		v, err := b.stringRecord(data)
		if err != nil {
			return err
		}
		if st.pending {
			st.pending = false
			return s.formulaCell(st.pendRow, st.pendCol, b.text(st.pendXF, v))
		}
	case xlsRHeader, xlsRFooter:
		v := b.headerText(data)
		if v == "" {
			return nil
		}
		if s.hf.parts == nil {
			s.hf.parts = map[string]string{}
		}
		if typ == xlsRHeader {
			s.hf.parts["oddHeader"] = v
		} else {
			s.hf.parts["oddFooter"] = v
		}
	case xlsRHeaderFtr:
		b.headerFooter(s, data)
	case xlsRMsoDrawing:
		st.draw.drawing(data)
	case xlsRObj:
		st.draw.obj(b, data)
	case xlsRTxO:
		return st.draw.txo(b, data)
	case xlsRNote:
		return st.draw.note(b, data)
	}
	return nil
}

// stringRecord reads a STRING record ([MS-XLS] 2.4.268) and its
// CONTINUE records: the string result of the formula before it.
func (b *xlsBook) stringRecord(data []byte) (string, error) {
	segs, err := b.rr.withContinues(data, b.budget)
	if err != nil {
		return "", err
	}
	data = segs[0] // the reader's buffer now holds the last CONTINUE
	if b.biff5 {
		if len(data) < 2 {
			return "", nil
		}
		n := le16(data, 0)
		var raw []byte
		c := &xlsCursor{segs: segs, p: 2}
		for len(raw) < n && c.advance() {
			seg := c.segs[c.si][c.p:]
			k := min(n-len(raw), len(seg))
			raw = append(raw, seg[:k]...)
			c.p += k
		}
		return b.cp.decode(raw), nil
	}
	c := &xlsCursor{segs: segs}
	cch, ok := c.uint(2)
	if !ok {
		return "", nil
	}
	flags, ok := c.byte()
	if !ok {
		return "", nil
	}
	v, _ := c.chars(int(cch), flags&1 != 0)
	return v, nil
}

// headerText reads a HEADER or FOOTER record ([MS-XLS] 2.4.136, 2.4.124):
// empty, or the text (BIFF5: a byte count and code-page bytes).
func (b *xlsBook) headerText(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	if b.biff5 {
		return b.biff5String(data, 0, 1)
	}
	v, _, _ := xlsUnicodeString(data, 0)
	return v
}

// headerFooter reads the HeaderFooter record ([MS-XLS] 2.4.137): the
// even-page and first-page texts and the flags that switch them on.
func (b *xlsBook) headerFooter(s *xlsSheet, data []byte) {
	const fixed = 12 + 16 + 2 + 8
	if len(data) < fixed {
		return
	}
	flags := le16(data, 28)
	s.hf.differentOddEven = flags&1 != 0
	s.hf.differentFirst = flags&2 != 0
	if s.hf.parts == nil {
		s.hf.parts = map[string]string{}
	}
	i := fixed
	for k, name := range []string{"evenHeader", "evenFooter", "firstHeader", "firstFooter"} {
		if le16(data, 30+2*k) == 0 {
			continue
		}
		v, next, _ := xlsUnicodeString(data, i)
		i = next
		if v != "" {
			s.hf.parts[name] = v
		}
	}
}
