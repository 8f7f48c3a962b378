package extract

import (
	"errors"
	"sort"
	"strings"
)

// Shared by the native .xls and .xlsb readers: the cells, comments, shapes
// and header/footer of one visible worksheet, turned into places exactly as
// the .xlsx reader writes them (reference/extraction.md §3, §5.3–§5.6):
//
//	<sheet>                    line N = row N, field k = column k, cells in
//	                           field form (xlCellField), trailing empty
//	                           fields and lines removed
//	<sheet>[図形]              "<A1><TAB><text in cell form>" per shape with
//	                           text, sorted by row, column, file order
//	<sheet>[コメント]          "<A1><TAB><text in cell form>" per comment,
//	                           sorted by row, column
//	<sheet>[ヘッダー・フッター] xlHeaderFooter.lines()

// errXlsTooMuchText is the cause of MsgOutOfMemory: the text of a workbook
// would exceed xlsTextCap (reference/extraction.md §13, "sheet text in
// memory about 1 GB → out of memory"; kept lower so a worker stays within
// its memory cap).
var errXlsTooMuchText = errors.New("extract: workbook text exceeds the in-memory cap")

// xlsTextCap is the most bytes of cell, string-table and object text one
// workbook may hold in memory; a variable so tests can lower it.
var xlsTextCap int64 = 256 << 20

// xlsBudget counts the text bytes a workbook holds.
type xlsBudget struct{ used, max int64 }

func newXlsBudget() *xlsBudget { return &xlsBudget{max: xlsTextCap} }

func (b *xlsBudget) add(n int) error {
	b.used += int64(n)
	if b.used > b.max {
		return errXlsTooMuchText
	}
	return nil
}

// xlsObject is a comment or shape: its top-left cell and text.
type xlsObject struct {
	row, col int // 1-based
	seq      int // file order
	text     string
	chart    any // *xlsChart: an .xls chart whose text is resolved at the end
}

// xlsSheet collects one worksheet.
type xlsSheet struct {
	name     string
	rows     map[int][]xlCell // 1-based row → cells in arrival order
	maxRow   int
	shapes   []xlsObject
	comments []xlsObject
	hf       xlHeaderFooter
	budget   *xlsBudget
	// formulaRows are the rows with formula results (only while
	// xlsFormulaTrace is set).
	formulaRows map[int]bool
}

func newXlsSheet(name string, b *xlsBudget) *xlsSheet {
	return &xlsSheet{name: name, rows: map[int][]xlCell{}, budget: b}
}

// cellOverhead approximates the memory of one stored cell besides its text.
const cellOverhead = 24

// cell records the display value of the cell at 1-based row and col; an
// empty value is no cell (Excel's export leaves the field empty).
func (s *xlsSheet) cell(row, col int, text string) error {
	if text == "" || row < 1 || col < 1 || row > 1048576 || col > 16384 {
		return nil
	}
	f := xlCellField(text)
	if err := s.budget.add(len(f) + cellOverhead); err != nil {
		return err
	}
	s.rows[row] = append(s.rows[row], xlCell{col: col, text: f})
	s.maxRow = max(s.maxRow, row)
	return nil
}

// object records a comment or shape text at 1-based row and col.
func (s *xlsSheet) object(list *[]xlsObject, row, col int, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if err := s.budget.add(len(text) + cellOverhead); err != nil {
		return err
	}
	*list = append(*list, xlsObject{row: max(row, 1), col: max(col, 1), seq: len(*list), text: text})
	return nil
}

// chartObject records a chart at 1-based row and col; its text comes
// once every sheet is read (xlsBook.resolveCharts).
func (s *xlsSheet) chartObject(row, col int, c any) {
	s.shapes = append(s.shapes, xlsObject{row: max(row, 1), col: max(col, 1), seq: len(s.shapes), chart: c})
}

// lines joins the rows (field k = column k) into place lines.
func (s *xlsSheet) lines() ([]string, error) {
	if len(s.rows) == 0 {
		return nil, nil
	}
	keys := make([]int, 0, len(s.rows))
	for r := range s.rows {
		keys = append(keys, r)
	}
	sort.Ints(keys)
	out := make([]string, 0, keys[len(keys)-1])
	var b strings.Builder
	for _, r := range keys {
		for len(out) < r-1 {
			out = append(out, "")
		}
		cells := s.rows[r]
		// A cell written twice keeps its last value, as Excel and
		// LibreOffice do when they load the records in order.
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].col < cells[j].col })
		w := 0
		for i := range cells {
			if w > 0 && cells[w-1].col == cells[i].col {
				cells[w-1] = cells[i]
				continue
			}
			cells[w] = cells[i]
			w++
		}
		last := cells[w-1].col
		if err := s.budget.add(last); err != nil {
			return nil, err
		}
		xlJoinRow(&b, cells[:w])
		out = append(out, b.String())
		delete(s.rows, r)
	}
	return xlTrimLines(out), nil
}

// xlsFormulaTrace, when set (by the agreement report), learns the rows of
// each sheet that hold a cached formula result: LibreOffice recalculates
// those, the native readers show the cached value as Excel does.
var xlsFormulaTrace func(sheet string, row int)

// formulaCell records a cell whose value is a cached formula result.
func (s *xlsSheet) formulaCell(row, col int, text string) error {
	if xlsFormulaTrace != nil && row >= 1 {
		if s.formulaRows == nil {
			s.formulaRows = map[int]bool{}
		}
		s.formulaRows[row] = true
	}
	return s.cell(row, col, text)
}

// objectLines renders comments or shapes as "<A1><TAB><cell form>" lines
// sorted by row, column and file order.
func xlsObjectLines(objs []xlsObject) []string {
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		if a.row != b.row {
			return a.row < b.row
		}
		if a.col != b.col {
			return a.col < b.col
		}
		return a.seq < b.seq
	})
	var out []string
	for _, o := range objs {
		t := xlObjectCellText(strings.ReplaceAll(strings.ReplaceAll(o.text, "\r\n", "\n"), "\r", "\n"))
		if t == "" {
			continue
		}
		out = append(out, xlCellName(o.col, o.row)+"\t"+t)
	}
	return out
}

// places appends the sheet's places that hold text.
func (s *xlsSheet) places(res *Result) error {
	lines, err := s.lines()
	if err != nil {
		return err
	}
	if len(lines) > 0 {
		res.Places = append(res.Places, Place{Name: s.name, Lines: lines})
	}
	if xlsFormulaTrace != nil {
		for r := range s.formulaRows {
			xlsFormulaTrace(s.name, r)
		}
	}
	if l := xlsObjectLines(s.shapes); len(l) > 0 {
		res.Places = append(res.Places, Place{Name: s.name + ooxmlShape, Lines: l})
	}
	if l := xlsObjectLines(s.comments); len(l) > 0 {
		res.Places = append(res.Places, Place{Name: s.name + ooxmlComment, Lines: l})
	}
	if l := s.hf.lines(); len(l) > 0 {
		res.Places = append(res.Places, Place{Name: s.name + "[" + ooxmlHeaderFooter + "]", Lines: l})
	}
	return nil
}
