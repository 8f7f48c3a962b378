package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
)

// fileResult is the comparison of one workbook.
type fileResult struct {
	in           input
	sheets       int // visible sheets compared
	hidden       int // hidden sheets excluded
	cells, equal int
	failed       string // why the file was not compared; "" when it was
	note         string
	diffs        []sheetDiff
}

// sheetDiff is one differing cell with its sheet and, when the cause is
// known without looking at the texts, its kind.
type sheetDiff struct {
	sheet string
	cellDiff
	kind           string
	formula, pivot bool // the cell holds a formula, its sheet a pivot table
}

// Kinds given by the comparison itself rather than by the texts.
const (
	kindNoPlace = "sheet exported by LibreOffice has no place in fumibako"
	kindNoLO    = "sheet place of fumibako not exported by LibreOffice"
)

// compareFile runs fumibako on one workbook and compares its sheets
// with LibreOffice's export.
func compareFile(ctx context.Context, cfg config, exp exportResult, work string, f input) (r fileResult) {
	r.in = f
	res, ferr := fumibako(ctx, cfg, work, f.path)
	sheets, lerr := exp.sheets, exp.err
	if r.failed, r.note = readFailure(ferr, lerr, sheets); r.failed != "" {
		return r
	}

	places := map[string]extract.Place{}
	var order []string
	for _, p := range res.Places {
		if isSheetPlace(p.Name) {
			places[p.Name] = p
			order = append(order, p.Name)
		}
	}
	states, serr := readSheets(f.path)
	hidden := map[string]bool{}
	info := map[string]*sheetInfo{}
	for i, s := range states {
		hidden[s.name] = s.hidden
		info[s.name] = &states[i]
	}
	var visible []loSheet
	for i, s := range sheets {
		h, known := hidden[s.name]
		if !known && serr == nil && len(states) == len(sheets) {
			h = states[i].hidden // LibreOffice renamed the sheet
			info[s.name] = &states[i]
		}
		if h {
			r.hidden++
			continue
		}
		visible = append(visible, s)
	}
	if note := matchLoneSheets(visible, places, order); note != "" {
		r.note = note
	}
	for _, s := range visible {
		b, err := os.ReadFile(s.csv)
		if err != nil {
			r.failed = "reading LibreOffice's CSV: " + err.Error()
			return r
		}
		p, ok := places[s.name]
		delete(places, s.name)
		r.sheets++
		cells, equal, diffs := compareGrids(placeGrid(p.Lines), csvGrid(b))
		r.cells += cells
		r.equal += equal
		for _, d := range diffs {
			at := cellPos{d.row, d.col}
			sd := sheetDiff{sheet: s.name, cellDiff: d, formula: info[s.name].formula(at), pivot: info[s.name].hasPivot()}
			if !ok {
				sd.kind = kindNoPlace
			}
			r.diffs = append(r.diffs, sd)
		}
	}
	for _, name := range order {
		p, ok := places[name]
		if !ok {
			continue
		}
		r.sheets++
		cells, _, diffs := compareGrids(placeGrid(p.Lines), nil)
		r.cells += cells
		for _, d := range diffs {
			r.diffs = append(r.diffs, sheetDiff{sheet: name, cellDiff: d, kind: kindNoLO})
		}
	}
	if serr != nil && f.group == groupOOXML && r.note == "" {
		r.note = "sheets unknown: " + serr.Error()
	}
	return r
}

// readFailure says why a file cannot be compared: one side or both
// failed to read it (with what LibreOffice read when only fumibako
// failed); "" when both read it.
func readFailure(ferr, lerr error, sheets []loSheet) (failed, note string) {
	switch {
	case ferr != nil && lerr != nil:
		return "both failed: fumibako: " + oneLine(ferr.Error()) + "; LibreOffice: " + oneLine(lerr.Error()), ""
	case ferr != nil:
		if n := loCells(sheets); n > 0 {
			note = fmt.Sprintf("LibreOffice read %d cells", n)
		}
		return "fumibako failed: " + oneLine(ferr.Error()), note
	case lerr != nil:
		return "LibreOffice failed: " + oneLine(lerr.Error()), ""
	}
	return "", ""
}

// matchLoneSheets renames LibreOffice's one unmatched visible sheet to
// fumibako's one unmatched place and says so: a workbook read as text has
// one sheet named after the file, and both sides read copies under other
// names, so a lone unmatched sheet on each side is the same sheet.
func matchLoneSheets(visible []loSheet, places map[string]extract.Place, order []string) string {
	var loOnly, ourOnly []string
	for _, s := range visible {
		if _, ok := places[s.name]; !ok {
			loOnly = append(loOnly, s.name)
		}
	}
	for _, name := range order {
		if !slices.ContainsFunc(visible, func(s loSheet) bool { return s.name == name }) {
			ourOnly = append(ourOnly, name)
		}
	}
	if len(loOnly) != 1 || len(ourOnly) != 1 {
		return ""
	}
	for i := range visible {
		if visible[i].name == loOnly[0] {
			visible[i].name = ourOnly[0]
		}
	}
	return fmt.Sprintf("LibreOffice's sheet %q compared with fumibako's %q", loOnly[0], ourOnly[0])
}

// fumibako extracts the workbook through the public API, with a scratch
// folder of its own and the per-file limit.
func fumibako(ctx context.Context, cfg config, work, path string) (res *extract.Result, err error) {
	scratch, err := os.MkdirTemp(work, "scratch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return extract.Extract(ctx, path, filepath.Base(path), extract.Options{Scratch: scratch})
}

// isSheetPlace reports whether a place holds cells: sheet names cannot
// hold brackets, so any "[…]" suffix marks shapes, comments or
// header/footer.
func isSheetPlace(name string) bool {
	return !(strings.HasSuffix(name, "]") && strings.Contains(name, "["))
}

// loCells counts the non-empty cells of an export (0 when unreadable).
func loCells(sheets []loSheet) int {
	n := 0
	for _, s := range sheets {
		b, err := os.ReadFile(s.csv)
		if err != nil {
			continue
		}
		c, _, _ := compareGrids(nil, csvGrid(b))
		n += c
	}
	return n
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}
