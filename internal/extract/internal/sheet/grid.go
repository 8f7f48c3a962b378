package sheet

import (
	"errors"
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
)

// Shared by the native .xls and .xlsb readers: the cells, comments, shapes
// and header/footer of one visible worksheet, turned into places exactly as
// the .xlsx reader writes them (reference/extraction.md §3, §5.3–§5.6):
//
//	<sheet>                    line N = row N, field k = column k, cells in
//	                           field form (CellField), trailing empty
//	                           fields and lines removed
//	<sheet>[図形]              "<A1><TAB><text in cell form>" per shape with
//	                           text, sorted by row, column, file order
//	<sheet>[コメント]          "<A1><TAB><text in cell form>" per comment,
//	                           sorted by row, column
//	<sheet>[ヘッダー・フッター] HeaderFooter.lines()

// ErrTooMuchText is the cause of MsgOutOfMemory: the text of a workbook
// would exceed TextCap (reference/extraction.md §13, "sheet text in
// memory about 1 GB → out of memory"; kept lower so a worker stays within
// its memory cap).
var ErrTooMuchText = errors.New("extract: workbook text exceeds the in-memory cap")

// TextCap is the most bytes of cell, string-table and object text one
// workbook may hold in memory; a variable so tests can lower it.
var TextCap int64 = 256 << 20

// Budget counts the text bytes a workbook holds.
type Budget struct{ used, max int64 }

func NewBudget() *Budget { return &Budget{max: TextCap} }

func (b *Budget) Add(n int) error {
	b.used += int64(n)
	if b.used > b.max {
		return ErrTooMuchText
	}
	return nil
}

// object is a comment or shape: its top-left cell and text.
type object struct {
	row, col int // 1-based
	seq      int // file order
	Text     string
	Chart    any // *xls.chart: an .xls chart whose text is resolved at the end
}

// Sheet collects one worksheet.
type Sheet struct {
	Name     string
	Rows     map[int][]Cell // 1-based row → cells in arrival order
	maxRow   int
	Shapes   []object
	Comments []object
	Hf       HeaderFooter
	budget   *Budget
	// formulaRows are the rows with formula results (only while
	// FormulaTrace is set).
	formulaRows map[int]bool
}

func New(name string, b *Budget) *Sheet {
	return &Sheet{Name: name, Rows: map[int][]Cell{}, budget: b}
}

// cellOverhead approximates the memory of one stored cell besides its text.
const cellOverhead = 24

// Cell records the display value of the cell at 1-based row and col; an
// empty value is no cell (Excel's export leaves the field empty).
func (s *Sheet) Cell(row, col int, text string) error {
	if text == "" || row < 1 || col < 1 || row > 1048576 || col > 16384 {
		return nil
	}
	f := CellField(text)
	if err := s.budget.Add(len(f) + cellOverhead); err != nil {
		return err
	}
	s.Rows[row] = append(s.Rows[row], Cell{Col: col, Text: f})
	s.maxRow = max(s.maxRow, row)
	return nil
}

// Object records a comment or shape text at 1-based row and col.
func (s *Sheet) Object(list *[]object, row, col int, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if err := s.budget.Add(len(text) + cellOverhead); err != nil {
		return err
	}
	*list = append(*list, object{row: max(row, 1), col: max(col, 1), seq: len(*list), Text: text})
	return nil
}

// ChartObject records a chart at 1-based row and col; its text comes
// once every sheet is read (xls.book.resolveCharts).
func (s *Sheet) ChartObject(row, col int, c any) {
	s.Shapes = append(s.Shapes, object{row: max(row, 1), col: max(col, 1), seq: len(s.Shapes), Chart: c})
}

// lines joins the rows (field k = column k) into place lines.
func (s *Sheet) lines() ([]string, error) {
	if len(s.Rows) == 0 {
		return nil, nil
	}
	keys := make([]int, 0, len(s.Rows))
	for r := range s.Rows {
		keys = append(keys, r)
	}
	sort.Ints(keys)
	out := make([]string, 0, keys[len(keys)-1])
	var b strings.Builder
	for _, r := range keys {
		for len(out) < r-1 {
			out = append(out, "")
		}
		cells := s.Rows[r]
		// A cell written twice keeps its last value, as Excel and
		// LibreOffice do when they load the records in order.
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].Col < cells[j].Col })
		w := 0
		for i := range cells {
			if w > 0 && cells[w-1].Col == cells[i].Col {
				cells[w-1] = cells[i]
				continue
			}
			cells[w] = cells[i]
			w++
		}
		last := cells[w-1].Col
		if err := s.budget.Add(last); err != nil {
			return nil, err
		}
		JoinRow(&b, cells[:w])
		out = append(out, b.String())
		delete(s.Rows, r)
	}
	return TrimLines(out), nil
}

// FormulaTrace, when set (by the agreement report), learns the rows of
// each sheet that hold a cached formula result: LibreOffice recalculates
// those, the native readers show the cached value as Excel does.
var FormulaTrace func(sheet string, row int)

// FormulaCell records a cell whose value is a cached formula result.
func (s *Sheet) FormulaCell(row, col int, text string) error {
	if FormulaTrace != nil && row >= 1 {
		if s.formulaRows == nil {
			s.formulaRows = map[int]bool{}
		}
		s.formulaRows[row] = true
	}
	return s.Cell(row, col, text)
}

// objectLines renders comments or shapes as "<A1><TAB><cell form>" lines
// sorted by row, column and file order.
func objectLines(objs []object) []string {
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
		t := ObjectCellText(strings.ReplaceAll(strings.ReplaceAll(o.Text, "\r\n", "\n"), "\r", "\n"))
		if t == "" {
			continue
		}
		out = append(out, CellName(o.col, o.row)+"\t"+t)
	}
	return out
}

// Places appends the sheet's places that hold text.
func (s *Sheet) Places(res *extract.Result) error {
	lines, err := s.lines()
	if err != nil {
		return err
	}
	if len(lines) > 0 {
		res.Places = append(res.Places, extract.Place{Name: s.Name, Lines: lines})
	}
	if FormulaTrace != nil {
		for r := range s.formulaRows {
			FormulaTrace(s.Name, r)
		}
	}
	if l := objectLines(s.Shapes); len(l) > 0 {
		res.Places = append(res.Places, extract.Place{Name: s.Name + extract.PlaceShape, Lines: l})
	}
	if l := objectLines(s.Comments); len(l) > 0 {
		res.Places = append(res.Places, extract.Place{Name: s.Name + extract.PlaceComment, Lines: l})
	}
	if l := s.Hf.Lines(); len(l) > 0 {
		res.Places = append(res.Places, extract.Place{Name: s.Name + "[" + extract.PlaceHeaderFooter + "]", Lines: l})
	}
	return nil
}
