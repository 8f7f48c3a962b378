package odf

import (
	"encoding/xml"
	"errors"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// Excel's grid, beyond which cells are not kept.
const (
	maxRows = 1048576
	maxCols = 16384
)

// book collects the visible sheets of a spreadsheet.
type book struct {
	budget *sheet.Budget
	sheets []*sheet.Sheet
	master []string // each sheet's master page name
}

// sheetBody reads office:spreadsheet.
func (w *walker) sheetBody(d *ooxml.Decoder) error {
	if w.book == nil {
		w.book = &book{budget: sheet.NewBudget()}
	}
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if !is(t.Name, nsTable, "table") {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			st := w.styleOf("table", attr(t, nsTable, "style-name"))
			name := attr(t, nsTable, "name")
			if st != nil && st.hidden {
				if !w.hiddenSheets {
					if err := d.Skip(); err != nil {
						return err
					}
					continue
				}
				name = extract.HiddenSheetName(name)
			}
			s := sheet.New(name, w.book.budget)
			master := ""
			if st != nil {
				master = st.master
			}
			w.book.sheets = append(w.book.sheets, s)
			w.book.master = append(w.book.master, master)
			row := 1
			if err := w.sheetRows(d, s, &row); err != nil {
				return err
			}
		}
	}
}

// sheetRows reads the rows of a table (and of its row groups), row being
// the 1-based number of the next row.
func (w *walker) sheetRows(d *ooxml.Decoder, s *sheet.Sheet, row *int) error {
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			switch {
			case is(t.Name, nsTable, "table-row"):
				reps := repeat(t, "number-rows-repeated")
				if err := w.sheetRow(d, s, *row, reps); err != nil {
					return err
				}
				*row += reps
			case t.Name.Space == nsTable && (t.Name.Local == "table-header-rows" || t.Name.Local == "table-rows" || t.Name.Local == "table-row-group"):
				if err := w.sheetRows(d, s, row); err != nil {
					return err
				}
			case is(t.Name, nsTable, "shapes"):
				lines, err := w.paras(d, "\n", nil)
				if err != nil {
					return err
				}
				// Page-anchored shapes have no cell: A1, as absoluteAnchor.
				if err := w.sheetShapes(s, 1, 1, lines); err != nil {
					return err
				}
			default:
				if err := d.Skip(); err != nil {
					return err
				}
			}
		}
	}
}

// sheetShapes records the lines of table:shapes, one shape per frame
// text; the frames are not told apart, so they form one object.
func (w *walker) sheetShapes(s *sheet.Sheet, row, col int, lines []string) error {
	return s.Object(&s.Shapes, row, col, strings.Join(lines, "\n"))
}

// repeat returns a table:number-*-repeated count, at least 1 and at most
// the grid's rows.
func repeat(se xml.StartElement, name string) int {
	n, err := strconv.Atoi(attr(se, nsTable, name))
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxRows)
}

type odsCell struct {
	col, reps int
	text      string
}

// sheetRow reads one table:table-row repeated reps times at row.
func (w *walker) sheetRow(d *ooxml.Decoder, s *sheet.Sheet, row, reps int) error {
	var cells []odsCell
	col := 1
	for {
		tok, err := w.token(d)
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			for r := row; r < row+reps && r <= maxRows; r++ {
				for _, c := range cells {
					for k := c.col; k < c.col+c.reps && k <= maxCols; k++ {
						if err := s.Cell(r, k, c.text); err != nil {
							return err
						}
					}
				}
			}
			return nil
		case xml.StartElement:
			if t.Name.Space != nsTable || (t.Name.Local != "table-cell" && t.Name.Local != "covered-table-cell") {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			at := col
			var objErr error
			h := &hooks{
				comment: func(l []string) {
					if objErr == nil && row <= maxRows && at <= maxCols {
						objErr = s.Object(&s.Comments, row, at, strings.Join(l, "\n"))
					}
				},
				shape: func(l []string) {
					if objErr == nil && row <= maxRows && at <= maxCols {
						objErr = w.sheetShapes(s, row, at, l)
					}
				},
			}
			lines, err := w.paras(d, "\n", h)
			if err != nil {
				return err
			}
			if objErr != nil {
				return objErr
			}
			n := repeat(t, "number-columns-repeated")
			if text := strings.Join(lines, "\n"); strings.TrimSpace(text) != "" && col <= maxCols {
				cells = append(cells, odsCell{col: col, reps: n, text: text})
			}
			col += n
		}
	}
}

// places appends each visible sheet's places, then its header and footer
// from its master page: headers, then footers; first page, right (odd)
// and left (even) pages; left, centre, right regions; lines trimmed,
// duplicates dropped, in cell form.
func (b *book) places(w *walker, res *extract.Result) error {
	for i, s := range b.sheets {
		if err := s.Places(res); err != nil {
			if errors.Is(err, sheet.ErrTooMuchText) {
				return &extract.Error{Msg: extract.MsgOutOfMemory, Cause: err}
			}
			return err
		}
		m := w.masters[b.master[i]]
		if m == nil {
			m = w.masters["Default"]
		}
		if m == nil {
			continue
		}
		var hf []string
		seen := map[string]bool{}
		for _, kind := range []string{"header", "footer"} {
			for _, el := range []string{kind + "-first", kind, kind + "-left"} {
				sec := m.hf[el]
				if sec == nil {
					continue
				}
				for _, lines := range sec {
					for _, l := range splitLines(lines) {
						if !seen[l] {
							seen[l] = true
							hf = append(hf, sheet.ObjectCellText(l))
						}
					}
				}
			}
		}
		extract.AddPlace(res, s.Name+"["+extract.PlaceHeaderFooter+"]", hf)
	}
	return nil
}
