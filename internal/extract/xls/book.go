package xls

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// The workbook reader shared by .xls files (package xls) and workbooks
// embedded in .doc and .ppt files (package embed): the globals substream
// (globals.go), then each visible sheet's substream — worksheets
// (sheet.go) with their notes and shapes (drawing.go) and charts
// (chart.go), and chart sheets. ReadWorkbook gives the places of the .xls
// reader; WorkbookText the text rows of an embedded workbook.

// errXlsVersion: a BIFF version other than 5 or 8.
var errXlsVersion = errors.New("extract: xls BIFF version not supported natively")

// boundSheet is one BoundSheet8 record ([MS-XLS] 2.4.28).
type boundSheet struct {
	pos     uint32 // stream offset of the sheet's BOF
	visible bool   // hsState 0
	hidden  bool   // hsState 1 or 2, read all the same (ReadWorkbookWith)
	dt      byte   // 0 worksheet or dialog, 1 macro, 2 chart, 6 VB module
	name    string
	used    bool
}

// book is the state of one workbook stream.
type book struct {
	ctx      context.Context
	rr       *biff.RecordReader
	biff5    bool
	cp       CodePage
	date1904 bool
	sst      []string
	styles   *sheet.Styles
	sheets   []boundSheet
	budget   *sheet.Budget
	// globalsEnd is the stream offset after the globals' EOF.
	globalsEnd int64
	// supSelf says which SUPBOOK records are this workbook; xti are the
	// EXTERNSHEET entries (SUPBOOK index, first sheet index).
	supSelf []bool
	xti     [][2]int
	// textOnly reads only the text cells of worksheets (WorkbookText);
	// texts are those of the sheet just read.
	textOnly bool
	texts    []textCell
	// old is 3 or 4 for a BIFF3 or BIFF4 worksheet (old.go);
	// oldFormats counts its FORMAT records.
	old        int
	oldFormats int
}

// ReadWorkbook reads a workbook stream (BIFF5 or BIFF8) into the places
// of the .xls reader; biff5Name says the stream was named Book (a hint
// when the BOF version is unusual). Errors are those of the records;
// sheet.ErrTooMuchText past the text budget.
func ReadWorkbook(ctx context.Context, r io.Reader, biff5Name bool) (*extract.Result, error) {
	return ReadWorkbookWith(ctx, r, biff5Name, false)
}

// ReadWorkbookWith is ReadWorkbook that, with hidden, reads the hidden and
// very hidden sheets too, as places named extract.HiddenSheetName
// (extract.Options.HiddenSheets, issue 31).
func ReadWorkbookWith(ctx context.Context, r io.Reader, biff5Name, hidden bool) (*extract.Result, error) {
	b := newBook(ctx, r)
	if err := b.readGlobals(biff5Name); err != nil {
		return nil, err
	}
	if hidden {
		for i := range b.sheets {
			if !b.sheets[i].visible {
				b.sheets[i].visible, b.sheets[i].hidden = true, true
			}
		}
	}
	if b.old != 0 {
		s := sheet.New(oldSheetName, b.budget)
		if err := b.readSheet(s); err != nil {
			return nil, err
		}
		res := &extract.Result{}
		if err := s.Places(res); err != nil {
			return nil, err
		}
		return res, nil
	}
	sheets := make([]*sheet.Sheet, len(b.sheets))
	// Like the .xlsx reader, a sheet without a name or with the name of an
	// earlier sheet (ignoring case) is not a place.
	names := map[string]bool{}
	for i := range b.sheets {
		if !b.sheets[i].visible {
			continue
		}
		k := strings.ToLower(b.sheets[i].name)
		if k == "" || names[k] {
			b.sheets[i].visible = false
		}
		names[k] = true
	}
	err := b.eachSubstream(func(i, dt int) (bool, error) {
		switch {
		case b.sheets[i].visible && b.sheets[i].dt == 0 && dt == biff.DtWorksheet:
			s := sheet.New(b.sheets[i].placeName(), b.budget)
			if err := b.readSheet(s); err != nil {
				return true, fmt.Errorf("sheet %q: %w", s.Name, err)
			}
			sheets[i] = s
		case b.sheets[i].visible && b.sheets[i].dt == 2 && dt == dtChart:
			// A chart sheet: its chart text at A1 and its header/footer,
			// as the .xlsx reader gives chart sheets.
			s := sheet.New(b.sheets[i].placeName(), b.budget)
			c, err := b.readChart(s)
			if err != nil {
				return true, fmt.Errorf("chart sheet %q: %w", s.Name, err)
			}
			s.ChartObject(1, 1, c)
			sheets[i] = s
		default:
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if err := b.resolveCharts(sheets); err != nil {
		return nil, err
	}
	res := &extract.Result{}
	for _, s := range sheets {
		if s == nil {
			continue
		}
		if err := s.Places(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// placeName is the sheet's place: its name, or for a hidden sheet read on
// request its name with extract.HiddenSheetSuffix.
func (s boundSheet) placeName() string {
	if s.hidden {
		return extract.HiddenSheetName(s.name)
	}
	return s.name
}

// eachSubstream walks the substreams after the globals: for the BOF of
// BoundSheet i (of type dt) it calls read, which reads the substream up to
// its EOF and returns true, or returns false to have it skipped.
func (b *book) eachSubstream(read func(i, dt int) (bool, error)) error {
	for {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		typ, data, off, err := b.rr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if typ != biff.RBOF {
			continue
		}
		dt := 0
		if len(data) >= 4 {
			dt = biff.Le16(data, 2)
		}
		done := false
		if i := b.sheetAt(uint32(off)); i >= 0 {
			if done, err = read(i, dt); err != nil {
				return err
			}
		}
		if !done {
			if err := b.skipSubstream(); err != nil {
				return err
			}
		}
	}
}

// sheetAt finds the BoundSheet whose BOF sits at off; a file whose
// offsets are wrong gets its substreams in BoundSheet order instead.
func (b *book) sheetAt(off uint32) int {
	for i := range b.sheets {
		if b.sheets[i].pos == off && !b.sheets[i].used {
			b.sheets[i].used = true
			return i
		}
	}
	for i := range b.sheets {
		if !b.sheets[i].used && !b.posValid(b.sheets[i].pos) {
			b.sheets[i].used = true
			return i
		}
	}
	return -1
}

// posValid is false for a BoundSheet offset no substream can start at
// (before the end of the globals).
func (b *book) posValid(pos uint32) bool { return int64(pos) >= b.globalsEnd }

// skipSubstream skips records up to the EOF that closes the substream
// just opened, nested substreams (embedded charts) included.
func (b *book) skipSubstream() error {
	depth := 1
	for depth > 0 {
		typ, _, _, err := b.rr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch typ {
		case biff.RBOF:
			depth++
		case biff.REOF:
			depth--
		}
	}
	return nil
}
