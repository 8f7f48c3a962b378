package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// Preview limits (reference/gui.md §4.6).
const (
	previewMaxRows  = 101
	previewMaxCols  = 200
	previewCellChar = 1000 // the browser shows 300 and the rest in a tooltip
	previewDefault  = 15   // rows before and after when the browser does not say
)

// PreviewView is the place around a hit: a grid for an Excel sheet (row
// numbers and column letters), one column of paragraphs otherwise.
type PreviewView struct {
	Grid      bool         `json:"grid"`
	Rows      []PreviewRow `json:"rows"`
	Lines     int          `json:"lines"`     // lines in the place
	FirstCol  int          `json:"firstCol"`  // 0-based column of Rows[i].Cells[0]
	TotalCols int          `json:"totalCols"` // widest row of the shown ones
	ColNote   string       `json:"colNote,omitempty"`
	// Header is the sheet's first row when the window starts below it:
	// the browser shows it frozen above the rows around the hit, as a
	// header row (issue 18). Nil for paragraphs and when row 1 is shown.
	Header *PreviewRow `json:"header,omitempty"`
}

// PreviewRow is one line of the place.
type PreviewRow struct {
	N     int      `json:"n"` // line number (Excel: sheet row)
	Cells []string `json:"cells"`
}

// handlePreview answers GET /api/preview?path=<index path>&place=<place
// name>&row=N[&before=B&after=A&col=C] from the body index; col is the
// hit's 0-based column, around which at most 200 columns are sent.
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rel := q.Get("path")
	if !ingestlist.ValidRelPath(rel) {
		writeError(w, http.StatusBadRequest, "web: not an index path: "+rel)
		return
	}
	row, _ := strconv.Atoi(q.Get("row"))
	before, after, col := intParam(q.Get("before"), previewDefault), intParam(q.Get("after"), previewDefault), intParam(q.Get("col"), 0)
	if before+after+1 > previewMaxRows {
		before, after = (previewMaxRows-1)/2, (previewMaxRows-1)/2
	}
	// Only the window (and a sheet's first row) is read from the index,
	// never the whole file (issue 36).
	row = max(row, 1)
	win, err := search.ReadWindow(s.ws.ContentRoot(), rel, q.Get("place"), row-before, row+after)
	switch {
	case errors.Is(err, search.ErrOutside):
		writeError(w, http.StatusForbidden, "web: outside the content root")
		return
	case err != nil:
		writeJSON(w, http.StatusNotFound, apiError{Error: err.Error()})
		return
	}
	v := preview(win.Lines, win.Head, win.Total, col, win.Sheet)
	writeJSON(w, http.StatusOK, v)
}

func intParam(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return def
	}
	return n
}

// preview lays out a window of a place (lines, numbered; head, a sheet's
// first row when the window starts below it; total, the place's lines)
// around the hit's column col. A line the cap split (extract.LineMaxRunes)
// shows its first piece, its last cell ending in `…`.
func preview(lines, head []search.PlaceLine, total, col int, grid bool) PreviewView {
	v := PreviewView{Grid: grid, Lines: total, Rows: []PreviewRow{}}
	cellsOf := func(l search.PlaceLine) []string {
		var cells []string
		if !grid {
			cells = []string{cutText(l.Text)}
		} else {
			for _, f := range search.Fields(l.Text) {
				cells = append(cells, cutText(export.UnquoteCell(l.Text[f[0]:f[1]])))
			}
		}
		if l.Continued && len(cells) > 0 && !strings.HasSuffix(cells[len(cells)-1], "…") {
			cells[len(cells)-1] += "…"
		}
		return cells
	}
	for _, l := range lines {
		cells := cellsOf(l)
		v.TotalCols = max(v.TotalCols, len(cells))
		v.Rows = append(v.Rows, PreviewRow{N: l.No, Cells: cells})
	}
	if grid && len(head) > 0 {
		v.Header = &PreviewRow{N: 1, Cells: cellsOf(head[0])}
	}
	if grid && v.TotalCols > previewMaxCols {
		start := min(max(0, col-previewMaxCols/2), v.TotalCols-previewMaxCols)
		end := start + previewMaxCols
		for i := range v.Rows {
			c := v.Rows[i].Cells
			v.Rows[i].Cells = c[min(start, len(c)):min(end, len(c))]
		}
		if v.Header != nil {
			c := v.Header.Cells
			v.Header.Cells = c[min(start, len(c)):min(end, len(c))]
		}
		v.FirstCol = start
		v.ColNote = fmt.Sprintf("表示は %s〜%s の %d 列（全 %s 列）", search.ColumnName(start), search.ColumnName(end-1),
			previewMaxCols, search.Thousands(v.TotalCols))
	}
	return v
}

// cutText bounds a cell's text; the browser cuts the display further.
func cutText(s string) string {
	n := 0
	for i := range s {
		if n == previewCellChar {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
