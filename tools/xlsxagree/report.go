package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// report gathers the file results and the kinds of difference.
type report struct {
	version, corpus string
	files           []fileResult
	kinds           map[string]*kindStat
	keep            int // differing cells listed per file
}

// kindStat counts one kind of difference.
type kindStat struct {
	kind    string
	cells   int
	files   map[string]bool
	example string
}

func newReport(version, corpus string, keep int) *report {
	return &report{version: version, corpus: corpus, kinds: map[string]*kindStat{}, keep: keep}
}

func (r *report) add(f fileResult) {
	for i, d := range f.diffs {
		k := d.kind
		if k == "" {
			k = classify(d.ours, d.lo, d.formula, d.pivot)
			f.diffs[i].kind = k
		}
		s := r.kinds[k]
		if s == nil {
			s = &kindStat{kind: k, files: map[string]bool{}, example: diffLine(f, d)}
			r.kinds[k] = s
		}
		s.cells++
		s.files[f.in.rel] = true
	}
	if len(f.diffs) > r.keep {
		f.diffs = f.diffs[:r.keep:r.keep] // the kinds keep the rest
	}
	r.files = append(r.files, f)
}

// quote shows a cell's text on one line, cut when long.
func quote(s string) string {
	if s == "" {
		return "(empty)"
	}
	r := []rune(strings.ReplaceAll(s, "\n", "⏎"))
	if len(r) > 40 {
		r = append(r[:40], '…')
	}
	return "«" + string(r) + "»"
}

// totals sums the compared files of a group (-1: all groups).
type totals struct {
	files, compared, failed, sheets, hidden, cells, equal int
	rates, rated                                          float64 // sum and count of per-file agreement
}

func (r *report) totals(group int) totals {
	var t totals
	for _, f := range r.files {
		if group >= 0 && f.in.group != group {
			continue
		}
		t.files++
		if f.failed != "" {
			t.failed++
			continue
		}
		t.compared++
		t.sheets += f.sheets
		t.hidden += f.hidden
		t.cells += f.cells
		t.equal += f.equal
		if f.cells > 0 {
			t.rates += float64(f.equal) / float64(f.cells)
			t.rated++
		}
	}
	return t
}

func pct(equal, cells int) string {
	if cells == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(equal)/float64(cells))
}

// worst lists the n compared files with the lowest agreement (ties: more
// differing cells first).
func (r *report) worst(n int) []fileResult {
	var w []fileResult
	for _, f := range r.files {
		if f.failed == "" && f.cells > f.equal {
			w = append(w, f)
		}
	}
	sort.SliceStable(w, func(i, j int) bool {
		a := float64(w[i].equal) / float64(w[i].cells)
		b := float64(w[j].equal) / float64(w[j].cells)
		if a != b {
			return a < b
		}
		return w[i].cells-w[i].equal > w[j].cells-w[j].equal
	})
	if len(w) > n {
		w = w[:n]
	}
	return w
}

// topKinds lists the n most frequent kinds (ties: by name).
func (r *report) topKinds(n int) []*kindStat {
	var k []*kindStat
	for _, s := range r.kinds {
		k = append(k, s)
	}
	sort.Slice(k, func(i, j int) bool {
		if k[i].cells != k[j].cells {
			return k[i].cells > k[j].cells
		}
		return k[i].kind < k[j].kind
	})
	if len(k) > n {
		k = k[:n]
	}
	return k
}

// summary is the cell-weighted rate, then the mean of the per-file rates
// (large files weigh no more than small ones), over files with cells.
func (t totals) summary() string {
	mean := "-"
	if t.rated > 0 {
		mean = fmt.Sprintf("%.2f%%", 100*t.rates/t.rated)
	}
	return fmt.Sprintf("%d of %d cells equal (%s; mean per file %s) in %d sheets of %d files; %d hidden sheets excluded; %d files not compared",
		t.equal, t.cells, pct(t.equal, t.cells), mean, t.sheets, t.compared, t.hidden, t.failed)
}

// fileRow is the table row of one file.
func fileRow(f fileResult) []string {
	if f.failed != "" {
		note := f.failed
		if f.note != "" {
			note += " (" + f.note + ")"
		}
		return []string{f.in.rel, "", "", "", "", "", "-", note}
	}
	return []string{f.in.rel, fmt.Sprint(f.sheets), fmt.Sprint(f.hidden), fmt.Sprint(f.cells),
		fmt.Sprint(f.equal), fmt.Sprint(f.cells - f.equal), pct(f.equal, f.cells), f.note}
}

var fileHeader = []string{"file", "sheets", "hidden", "cells", "equal", "differ", "agreement", "note"}

func (r *report) writeText(w io.Writer, nkinds int) error {
	fmt.Fprintf(w, "xlsxagree: fumibako's cell display values vs %s CSV export (as shown, locale %s)\n", r.version, loLocale)
	fmt.Fprintf(w, "corpus: %s\n", r.corpus)
	for g := range groupTitle {
		t := r.totals(g)
		fmt.Fprintf(w, "\n%s (%d files)\n", groupTitle[g], t.files)
		if t.files == 0 {
			continue
		}
		rows := [][]string{fileHeader}
		for _, f := range r.files {
			if f.in.group == g {
				rows = append(rows, fileRow(f))
			}
		}
		writeTable(w, "", rows)
		fmt.Fprintf(w, "%s: %s\n", groupTitle[g], t.summary())
	}
	fmt.Fprintf(w, "\noverall: %s\n", r.totals(-1).summary())
	fmt.Fprintf(w, "\nworst files\n")
	var rows [][]string
	for _, f := range r.worst(10) {
		rows = append(rows, []string{f.in.rel, pct(f.equal, f.cells), fmt.Sprintf("%d of %d cells differ", f.cells-f.equal, f.cells)})
	}
	writeTable(w, "  ", rows)
	fmt.Fprintf(w, "\nmost frequent kinds of difference\n")
	for i, k := range r.topKinds(nkinds) {
		fmt.Fprintf(w, "%2d. %s: %d cells in %d files\n    e.g. %s\n", i+1, k.kind, k.cells, len(k.files), k.example)
	}
	if r.keep > 0 {
		fmt.Fprintf(w, "\ndiffering cells (at most %d per file)\n", r.keep)
		for _, f := range r.files {
			for _, d := range f.diffs {
				fmt.Fprintf(w, "  %s\n    %s\n", diffLine(f, d), d.kind)
			}
		}
	}
	return nil
}

// writeTable writes rows as aligned columns, each line after indent and
// without trailing spaces.
func writeTable(w io.Writer, indent string, rows [][]string) {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			fmt.Fprintln(w, indent+strings.TrimRight(line, " \n"))
		}
	}
}

// diffLine shows one differing cell.
func diffLine(f fileResult, d sheetDiff) string {
	return fmt.Sprintf("%s!%s!%s: fumibako %s, LibreOffice %s", f.in.rel, d.sheet, cellName(d.row, d.col), quote(d.ours), quote(d.lo))
}

func (r *report) writeMarkdown(w io.Writer, nkinds int) error {
	fmt.Fprintf(w, "# xlsxagree: fumibako vs %s\n\n", mdEscape(r.version))
	fmt.Fprintf(w, "Cell display values against LibreOffice's CSV export (as shown, locale %s) of `%s`.\n", loLocale, r.corpus)
	for g := range groupTitle {
		t := r.totals(g)
		fmt.Fprintf(w, "\n## %s (%d files)\n\n", groupTitle[g], t.files)
		if t.files == 0 {
			continue
		}
		mdRow(w, fileHeader)
		mdRow(w, []string{"---", "--:", "--:", "--:", "--:", "--:", "--:", "---"})
		for _, f := range r.files {
			if f.in.group == g {
				row := fileRow(f)
				row[0] = "`" + row[0] + "`"
				mdRow(w, row)
			}
		}
		fmt.Fprintf(w, "\n%s: %s.\n", groupTitle[g], t.summary())
	}
	fmt.Fprintf(w, "\n**Overall:** %s.\n", r.totals(-1).summary())
	fmt.Fprintf(w, "\n## Worst files\n\n")
	mdRow(w, []string{"file", "agreement", "differ", "cells"})
	mdRow(w, []string{"---", "--:", "--:", "--:"})
	for _, f := range r.worst(10) {
		mdRow(w, []string{"`" + f.in.rel + "`", pct(f.equal, f.cells), fmt.Sprint(f.cells - f.equal), fmt.Sprint(f.cells)})
	}
	fmt.Fprintf(w, "\n## Most frequent kinds of difference\n\n")
	mdRow(w, []string{"#", "kind", "cells", "files", "example"})
	mdRow(w, []string{"--:", "---", "--:", "--:", "---"})
	for i, k := range r.topKinds(nkinds) {
		mdRow(w, []string{fmt.Sprint(i + 1), k.kind, fmt.Sprint(k.cells), fmt.Sprint(len(k.files)), k.example})
	}
	if r.keep > 0 {
		fmt.Fprintf(w, "\n## Differing cells (at most %d per file)\n\n", r.keep)
		mdRow(w, []string{"cell", "kind"})
		mdRow(w, []string{"---", "---"})
		for _, f := range r.files {
			for _, d := range f.diffs {
				mdRow(w, []string{diffLine(f, d), d.kind})
			}
		}
	}
	return nil
}

func mdRow(w io.Writer, cells []string) {
	for i, c := range cells {
		cells[i] = mdEscape(c)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
