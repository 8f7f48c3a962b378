package xls

import (
	"context"
	"io"
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// The text of a workbook embedded in a .doc or .ppt (reference/
// extraction.md §9, as readEmbeddedWorkbook reads an embedded package):
// the visible worksheets in BoundSheet order, and of each only its text
// cells, unformatted — LABELSST, LABEL, RSTRING and the string results of
// FORMULA (the STRING record after it). One line per row holding text: its
// text cells in column order joined by TAB; TAB, CR and LF inside a cell
// become spaces and the cell is trimmed. Records are read as ReadWorkbook
// reads them (BIFF5 strings in the CODEPAGE's code page, the default
// password's encryption, the text budget), except that a cell record too
// short for its fields is skipped instead of failing the workbook.

// textCell is one text cell of an embedded workbook (0-based row and
// column, as the records hold them).
type textCell struct {
	row, col int
	text     string
}

// WorkbookText reads the workbook stream of an embedded workbook and
// returns its text rows; biff5Name says the stream was named Book.
func WorkbookText(ctx context.Context, r io.Reader, biff5Name bool) ([]string, error) {
	b := newBook(ctx, r)
	b.textOnly = true
	if err := b.readGlobals(biff5Name); err != nil {
		return nil, err
	}
	if b.old != 0 {
		if err := b.readSheet(nil); err != nil {
			return nil, err
		}
		return textRows(b.texts), nil
	}
	rows := make([][]string, len(b.sheets))
	err := b.eachSubstream(func(i, dt int) (bool, error) {
		if !b.sheets[i].visible || b.sheets[i].dt != 0 || dt != biff.DtWorksheet {
			return false, nil
		}
		if err := b.readSheet(nil); err != nil {
			return true, err
		}
		rows[i] = textRows(b.texts)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out, nil
}

// textRecord keeps the text of one record of an embedded workbook's
// worksheet.
func (b *book) textRecord(st *sheetState, typ uint16, data []byte) error {
	if b.old != 0 {
		if handled, err := b.oldRecord(typ, data); handled {
			return err
		}
	}
	st.cellRecord(typ)
	add := func(v string) {
		if v = strings.TrimSpace(ooxml.SpaceControls(v)); v != "" {
			st.texts = append(st.texts, textCell{biff.Le16(data, 0), biff.Le16(data, 2), v})
		}
	}
	switch typ {
	case biff.RLabelSST:
		if len(data) >= 10 {
			if i := int(biff.Le32(data, 6)); i >= 0 && i < len(b.sst) {
				add(b.sst[i])
			}
		}
	case biff.RLabel, biff.RRString:
		if len(data) >= 8 {
			add(b.labelString(data))
		}
	case biff.RFormula, biff.RFormula4, rFormula3:
		if len(data) >= 14 && data[6] == 0 && biff.Le16(data, 12) == 0xFFFF {
			st.pendRow, st.pendCol, st.pending = biff.Le16(data, 0), biff.Le16(data, 2), true
		}
	case biff.RStr:
		v, err := b.stringRecord(data)
		if err != nil {
			return err
		}
		if st.pending {
			st.pending = false
			if v = strings.TrimSpace(ooxml.SpaceControls(v)); v != "" {
				st.texts = append(st.texts, textCell{st.pendRow, st.pendCol, v})
			}
		}
	}
	return nil
}

// textRows joins the text cells of one sheet into rows.
func textRows(cells []textCell) []string {
	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].row != cells[j].row {
			return cells[i].row < cells[j].row
		}
		return cells[i].col < cells[j].col
	})
	var out []string
	for i := 0; i < len(cells); {
		j := i
		var row []string
		for ; j < len(cells) && cells[j].row == cells[i].row; j++ {
			row = append(row, cells[j].text)
		}
		out = append(out, strings.Join(row, "\t"))
		i = j
	}
	return out
}

// newBook starts reading a workbook stream.
func newBook(ctx context.Context, r io.Reader) *book {
	return &book{ctx: ctx, rr: biff.NewRecordReader(r), styles: sheet.NewStyles(), budget: sheet.NewBudget()}
}
