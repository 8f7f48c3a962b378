package extract

import (
	"errors"
	"fmt"
	"io"
)

// xlsbSheetTypes are the records a worksheet part is read for.
func xlsbSheetTypes(t int) bool {
	return t <= xlsbFmlaError || t == xlsbCellRString || t == xlsbBeginHeaderFtr
}

// readSheet reads the cells and header/footer of a worksheet part.
func (b *xlsbBook) readSheet(s *xlsSheet, part string) error {
	rc, rr, err := b.open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	row := 0 // 0-based, from the last BrtRowHdr
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		typ, data, err := rr.next(xlsbSheetTypes)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case xlsbRowHdr:
			if len(data) >= 4 {
				row = int(le32(data, 0) & 0xFFFFF)
			}
			continue
		case xlsbBeginHeaderFtr:
			b.headerFooter(s, data)
			continue
		case xlsbCellBlank:
			continue
		}
		// Cell ([MS-XLSB] 2.5.9): column (4), iStyleRef (24 bits) + flags.
		if len(data) < 8 {
			return fmt.Errorf("read %s: cell record %d: %w", part, typ, errXlsbShort)
		}
		col := int(le32(data, 0) & 0x3FFF)
		xf := int(le32(data, 4) & 0xFFFFFF)
		text, err := b.cellText(typ, xf, data)
		if err != nil {
			return fmt.Errorf("read %s: cell record %d: %w", part, typ, err)
		}
		add := s.cell
		if typ >= xlsbFmlaString && typ <= xlsbFmlaError {
			add = s.formulaCell
		}
		if err := add(row+1, col+1, text); err != nil {
			return err
		}
	}
}

// cellText is the display value of one cell record.
func (b *xlsbBook) cellText(typ, xf int, data []byte) (string, error) {
	f := b.styles.format(xf)
	need := func(n int) error {
		if len(data) < n {
			return errXlsbShort
		}
		return nil
	}
	switch typ {
	case xlsbCellRk:
		if err := need(12); err != nil {
			return "", err
		}
		return f.number(xlsRK(le32(data, 8)), b.date1904), nil
	case xlsbCellReal, xlsbFmlaNum:
		if err := need(16); err != nil {
			return "", err
		}
		return f.number(xlsbFloat(data, 8), b.date1904), nil
	case xlsbCellError, xlsbFmlaError:
		if err := need(9); err != nil {
			return "", err
		}
		return xlsErrorText(data[8]), nil
	case xlsbCellBool, xlsbFmlaBool:
		if err := need(9); err != nil {
			return "", err
		}
		return xlsBool(data[8] != 0), nil
	case xlsbCellSt, xlsbFmlaString:
		v, _, ok := xlsbWide(data, 8)
		if !ok {
			return "", errXlsbShort
		}
		return f.text(v), nil
	case xlsbCellRString:
		v, ok := xlsbRichStr(data, 8)
		if !ok {
			return "", errXlsbShort
		}
		return f.text(v), nil
	case xlsbCellIsst:
		if err := need(12); err != nil {
			return "", err
		}
		v, ok, err := b.sst.get(int(le32(data, 8)))
		if err != nil || !ok {
			return "", err
		}
		return f.text(v), nil
	}
	return "", nil
}

// headerFooter reads BrtBeginHeaderFooter ([MS-XLSB] 2.4.90): flags (2),
// then the header, footer, even header, even footer, first header and
// first footer as XLNullableWideStrings.
func (b *xlsbBook) headerFooter(s *xlsSheet, data []byte) {
	if len(data) < 2 {
		return
	}
	flags := le16(data, 0)
	s.hf.differentOddEven = flags&1 != 0
	s.hf.differentFirst = flags&2 != 0
	s.hf.parts = map[string]string{}
	i := 2
	for _, name := range []string{"oddHeader", "oddFooter", "evenHeader", "evenFooter", "firstHeader", "firstFooter"} {
		v, next, ok := xlsbWide(data, i)
		if !ok {
			return
		}
		i = next
		if v != "" {
			s.hf.parts[name] = v
		}
	}
}

// sheetObjects reads the comments (binary part) and shapes (drawing XML,
// read by the .xlsx reader's code) of a worksheet. As in the .xlsx
// reader, a broken part drops the sheet's shapes and comments with a log
// line; a size limit fails the file.
func (b *xlsbBook) sheetObjects(s *xlsSheet, part string, chart bool) error {
	err := b.readObjects(s, part, chart)
	switch {
	case err == nil:
		return nil
	case xlIsSizeError(err), errors.Is(err, errXlsTooMuchText):
		return err
	}
	if cerr := b.ctx.Err(); cerr != nil {
		return cerr
	}
	s.shapes, s.comments = nil, nil
	b.log = append(b.log, xlObjectsFailedLog+ooxmlSpaceControls(err.Error()))
	return nil
}

func (b *xlsbBook) readObjects(s *xlsSheet, part string, chart bool) error {
	rels, err := b.p.relsOf(part)
	if err != nil {
		return err
	}
	xb := &xlBook{ctx: b.ctx, p: b.p}
	threaded := map[xlRef]string{}
	var threadOrder []xlRef
	legacy := map[xlRef]string{}
	var legacyOrder []xlRef
	for _, r := range ooxmlSortedRels(rels) {
		if r.Target == "" || !b.p.has(r.Target) {
			continue
		}
		switch {
		case relTypeIs(r.Type, "drawing"):
			anchors, err := xb.readDrawing(r.Target, chart)
			if err != nil {
				return err
			}
			for _, a := range anchors {
				if err := s.object(&s.shapes, a.ref.row, a.ref.col, a.text); err != nil {
					return err
				}
			}
		case relTypeIs(r.Type, "comments"):
			if err := b.readComments(r.Target, legacy, &legacyOrder); err != nil {
				return err
			}
		case relTypeIs(r.Type, "threadedComment"):
			if err := xb.readThreadedComments(r.Target, threaded, &threadOrder); err != nil {
				return err
			}
		}
	}
	b.log = append(b.log, xb.log...)
	// A cell with a threaded comment ignores its legacy placeholder.
	for _, ref := range threadOrder {
		if err := s.object(&s.comments, ref.row, ref.col, threaded[ref]); err != nil {
			return err
		}
	}
	for _, ref := range legacyOrder {
		if _, ok := threaded[ref]; ok {
			continue
		}
		if err := s.object(&s.comments, ref.row, ref.col, legacy[ref]); err != nil {
			return err
		}
	}
	return nil
}

// readComments reads a binary comments part: BrtBeginComment gives the
// cell (rwFirst, colFirst of its range), the BrtCommentText inside it the
// text; the first comment of a cell wins.
func (b *xlsbBook) readComments(part string, out map[xlRef]string, order *[]xlRef) error {
	rc, rr, err := b.open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	var cur *xlRef
	for {
		typ, data, err := rr.next(func(t int) bool {
			return t == xlsbBeginComment || t == xlsbEndComment || t == xlsbCommentText
		})
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case xlsbBeginComment:
			// iauthor (4), rfx: rwFirst, rwLast, colFirst, colLast (4 each)
			cur = nil
			if len(data) >= 20 {
				cur = &xlRef{row: int(le32(data, 4)&0xFFFFF) + 1, col: int(le32(data, 12)&0x3FFF) + 1}
			}
		case xlsbEndComment:
			cur = nil
		case xlsbCommentText:
			v, ok := xlsbRichStr(data, 0)
			if cur == nil || !ok {
				continue
			}
			if _, dup := out[*cur]; !dup {
				*order = append(*order, *cur)
				out[*cur] = v
			}
		}
	}
}
