package xlsx

import (
	"errors"
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/biff12"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// sheetTypes are the records a worksheet part is read for.
func sheetTypes(t int) bool {
	return t <= biff12.ShortIsst || t == biff12.CellRString || t == biff12.BeginHeaderFtr
}

// shortCell maps a short cell record ([MS-XLSB] 2.4.x BrtShort*: Cell
// without its column) to the full record of the same value.
var shortCell = map[int]int{
	biff12.ShortBlank: biff12.CellBlank, biff12.ShortRk: biff12.CellRk,
	biff12.ShortError: biff12.CellError, biff12.ShortBool: biff12.CellBool,
	biff12.ShortReal: biff12.CellReal, biff12.ShortSt: biff12.CellSt,
	biff12.ShortIsst: biff12.CellIsst,
}

// readSheet reads the cells and header/footer of a worksheet part.
func (b *xlsbBook) readSheet(s *sheet.Sheet, part string) error {
	rc, rr, err := b.open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	row := 0  // 0-based, from the last BrtRowHdr
	col := -1 // 0-based column of the row's previous cell record
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		typ, data, err := rr.Next(sheetTypes)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case biff12.RowHdr:
			if len(data) >= 4 {
				row = int(biff.Le32(data, 0) & 0xFFFFF)
			}
			col = -1
			continue
		case biff12.BeginHeaderFtr:
			b.headerFooter(s, data)
			continue
		}
		// Cell ([MS-XLSB] 2.5.9): column (4), iStyleRef (24 bits) + flags;
		// a short record has no column: it is the next one of the row.
		head := 8
		if full, short := shortCell[typ]; short {
			typ, head = full, 4
			col++
		} else if len(data) >= 4 {
			col = int(biff.Le32(data, 0) & 0x3FFF)
		}
		if typ == biff12.CellBlank {
			continue
		}
		if len(data) < head {
			return fmt.Errorf("read %s: cell record %d: %w", part, typ, biff12.ErrShort)
		}
		xf := int(biff.Le32(data, head-4) & 0xFFFFFF)
		text, err := b.cellText(typ, xf, data[head:])
		if err != nil {
			return fmt.Errorf("read %s: cell record %d: %w", part, typ, err)
		}
		add := s.Cell
		if typ >= biff12.FmlaString && typ <= biff12.FmlaError {
			add = s.FormulaCell
		}
		if err := add(row+1, col+1, text); err != nil {
			return err
		}
	}
}

// cellText is the display value of one cell record; v is the record's
// value, after its Cell header.
func (b *xlsbBook) cellText(typ, xf int, v []byte) (string, error) {
	f := b.styles.Format(xf)
	need := func(n int) error {
		if len(v) < n {
			return biff12.ErrShort
		}
		return nil
	}
	switch typ {
	case biff12.CellRk:
		if err := need(4); err != nil {
			return "", err
		}
		return f.Number(biff.RK(biff.Le32(v, 0)), b.date1904), nil
	case biff12.CellReal, biff12.FmlaNum:
		if err := need(8); err != nil {
			return "", err
		}
		return f.Number(biff12.Float(v, 0), b.date1904), nil
	case biff12.CellError, biff12.FmlaError:
		if err := need(1); err != nil {
			return "", err
		}
		return biff.ErrorText(v[0]), nil
	case biff12.CellBool, biff12.FmlaBool:
		if err := need(1); err != nil {
			return "", err
		}
		return biff.Bool(v[0] != 0), nil
	case biff12.CellSt, biff12.FmlaString:
		t, _, ok := biff12.Wide(v, 0)
		if !ok {
			return "", biff12.ErrShort
		}
		return f.Text(t), nil
	case biff12.CellRString:
		t, ok := biff12.RichStr(v, 0)
		if !ok {
			return "", biff12.ErrShort
		}
		return f.Text(t), nil
	case biff12.CellIsst:
		if err := need(4); err != nil {
			return "", err
		}
		t, ok, err := b.sst.get(int(biff.Le32(v, 0)))
		if err != nil || !ok {
			return "", err
		}
		return f.Text(t), nil
	}
	return "", nil
}

// headerFooter reads BrtBeginHeaderFooter ([MS-XLSB] 2.4.90): flags (2),
// then the header, footer, even header, even footer, first header and
// first footer as XLNullableWideStrings.
func (b *xlsbBook) headerFooter(s *sheet.Sheet, data []byte) {
	if len(data) < 2 {
		return
	}
	flags := biff.Le16(data, 0)
	s.Hf.DifferentOddEven = flags&1 != 0
	s.Hf.DifferentFirst = flags&2 != 0
	s.Hf.Parts = map[string]string{}
	i := 2
	for _, name := range []string{"oddHeader", "oddFooter", "evenHeader", "evenFooter", "firstHeader", "firstFooter"} {
		v, next, ok := biff12.Wide(data, i)
		if !ok {
			return
		}
		i = next
		if v != "" {
			s.Hf.Parts[name] = v
		}
	}
}

// sheetObjects reads the comments (binary part) and shapes (drawing XML,
// read by the .xlsx reader's code) of a worksheet. As in the .xlsx
// reader, a broken part drops the sheet's shapes and comments with a log
// line; a size limit fails the file.
func (b *xlsbBook) sheetObjects(s *sheet.Sheet, part string, chart bool) error {
	err := b.readObjects(s, part, chart)
	switch {
	case err == nil:
		return nil
	case isSizeError(err), errors.Is(err, sheet.ErrTooMuchText):
		return err
	}
	if cerr := b.ctx.Err(); cerr != nil {
		return cerr
	}
	s.Shapes, s.Comments = nil, nil
	b.log = append(b.log, objectsFailedLog+ooxml.SpaceControls(err.Error()))
	return nil
}

func (b *xlsbBook) readObjects(s *sheet.Sheet, part string, chart bool) error {
	rels, err := b.p.RelsOf(part)
	if err != nil {
		return err
	}
	xb := &xlBook{ctx: b.ctx, p: b.p}
	threaded := map[xlRef]string{}
	var threadOrder []xlRef
	legacy := map[xlRef]string{}
	var legacyOrder []xlRef
	for _, r := range ooxml.SortedRels(rels) {
		if r.Target == "" || !b.p.Has(r.Target) {
			continue
		}
		switch {
		case ooxml.RelTypeIs(r.Type, "drawing"):
			anchors, err := xb.readDrawing(r.Target, chart)
			if err != nil {
				return err
			}
			for _, a := range anchors {
				if err := s.Object(&s.Shapes, a.ref.row, a.ref.col, a.text); err != nil {
					return err
				}
			}
		case ooxml.RelTypeIs(r.Type, "comments"):
			if err := b.readComments(r.Target, legacy, &legacyOrder); err != nil {
				return err
			}
		case ooxml.RelTypeIs(r.Type, "threadedComment"):
			if err := xb.readThreadedComments(r.Target, threaded, &threadOrder); err != nil {
				return err
			}
		}
	}
	b.log = append(b.log, xb.log...)
	// A cell with a threaded comment ignores its legacy placeholder.
	for _, ref := range threadOrder {
		if err := s.Object(&s.Comments, ref.row, ref.col, threaded[ref]); err != nil {
			return err
		}
	}
	for _, ref := range legacyOrder {
		if _, ok := threaded[ref]; ok {
			continue
		}
		if err := s.Object(&s.Comments, ref.row, ref.col, legacy[ref]); err != nil {
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
		typ, data, err := rr.Next(func(t int) bool {
			return t == biff12.BeginComment || t == biff12.EndComment || t == biff12.CommentText
		})
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case biff12.BeginComment:
			// iauthor (4), rfx: rwFirst, rwLast, colFirst, colLast (4 each)
			cur = nil
			if len(data) >= 20 {
				cur = &xlRef{row: int(biff.Le32(data, 4)&0xFFFFF) + 1, col: int(biff.Le32(data, 12)&0x3FFF) + 1}
			}
		case biff12.EndComment:
			cur = nil
		case biff12.CommentText:
			v, ok := biff12.RichStr(data, 0)
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
