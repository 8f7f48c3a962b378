package main

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestRun runs the command on one generated workbook: a visible sheet
// whose cells both sides show alike, one cell under General that only
// fumibako turns into exponent form, a formula without a cached value,
// and a hidden sheet, which must be excluded though LibreOffice exports
// it.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts LibreOffice")
	}
	soffice, err := libreoffice.Find()
	if err != nil {
		testutil.Unavailable(t, "LibreOffice (soffice) not found, nothing to compare with: %v", err)
	}
	corpus := t.TempDir()
	writeBook(t, filepath.Join(corpus, "book.xlsx"))

	var out bytes.Buffer
	// The cache spares the second run a conversion.
	cfg := config{corpus: corpus, soffice: soffice, cache: t.TempDir(), timeout: 2 * time.Minute, batch: 10, kinds: 20}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	t.Log("\n" + got)
	for _, want := range []*regexp.Regexp{
		// 9 cells, 7 equal; 1 sheet compared, 1 hidden excluded.
		regexp.MustCompile(`(?m)^book\.xlsx +1 +1 +9 +7 +2 +77\.78%$`),
		regexp.MustCompile(`(?m)^\.xlsx / \.xlsm: 7 of 9 cells equal \(77\.78%; mean per file 77\.78%\) in 1 sheets of 1 files; 1 hidden sheets excluded; 0 files not compared$`),
		regexp.MustCompile(`(?m)^ \d\. General: exponent form in fumibako \(«0\.0E\+0»\), all digits in LibreOffice \(«0»\): 1 cells in 1 files\n    e\.g\. book\.xlsx!売上!B4: fumibako «4\.90123E\+12», LibreOffice «4901234567894»$`),
		regexp.MustCompile(`(?m)^ \d\. ` + regexp.QuoteMeta(kindFormula) + `: 1 cells in 1 files\n    e\.g\. book\.xlsx!売上!E1: fumibako \(empty\), LibreOffice «2469134»$`),
	} {
		if !want.MatchString(got) {
			t.Errorf("report lacks %s", want)
		}
	}

	out.Reset()
	cfg.md = true
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	if want := "| `book.xlsx` | 1 | 1 | 9 | 7 | 2 | 77.78% |  |\n"; !strings.Contains(out.String(), want) {
		t.Errorf("markdown report lacks %q:\n%s", want, out.String())
	}
}

// writeBook writes the workbook of TestRun.
func writeBook(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "売上"); err != nil {
		t.Fatal(err)
	}
	thousands, err := f.NewStyle(&excelize.Style{NumFmt: 3}) // #,##0
	if err != nil {
		t.Fatal(err)
	}
	set := func(sheet, cell string, v any) {
		t.Helper()
		if err := f.SetCellValue(sheet, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	set("売上", "A1", "品名")
	set("売上", "B1", "数量")
	set("売上", "A2", "りんご\n青森産")
	set("売上", "B2", 1234567)
	if err := f.SetCellStyle("売上", "B2", "B2", thousands); err != nil {
		t.Fatal(err)
	}
	set("売上", "C3", `特"A"級`)
	set("売上", "A4", "JAN")
	set("売上", "B4", 4901234567894) // General: 4.90123E+12 in Excel
	set("売上", "D5", 12.5)
	// A formula without a cached value: fumibako shows nothing (nothing
	// is recalculated), LibreOffice computes 2469134.
	if err := f.SetCellFormula("売上", "E1", "B2*2"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("隠し"); err != nil {
		t.Fatal(err)
	}
	set("隠し", "A1", "secret")
	if err := f.SetSheetVisible("隠し", false); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

func TestSplitPlaceLine(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"", nil},
		{"a\tb", []string{"a", "b"}},
		{"\t\tc", []string{"", "", "c"}},
		{"\"りんご\u2028青森産\"\t10\t\"特\"\"A\"\"級\"", []string{"りんご\n青森産", "10", `特"A"級`}},
		{"\"a\tb\"\tc", []string{"a\tb", "c"}},
		{"\"\"\"\"\t", []string{`"`, ""}},
	}
	for _, tt := range tests {
		if got := splitPlaceLine(tt.line); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitPlaceLine(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestCSVGrid(t *testing.T) {
	tests := []struct {
		name string
		csv  string
		want grid
	}{
		{"empty lines are rows", "a\n\nb\n", grid{{"a"}, nil, {"b"}}},
		{"quoted", "\"x,y\",\"a\"\"b\"\n", grid{{"x,y", `a"b`}}},
		{"newline in cell", "\"l1\r\nl2\",2\n,\n", grid{{"l1\nl2", "2"}, {"", ""}}},
		{"BOM, no final newline", "\xEF\xBB\xBF1,2", grid{{"1", "2"}}},
	}
	for _, tt := range tests {
		if got := csvGrid([]byte(tt.csv)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: csvGrid(%q) = %q, want %q", tt.name, tt.csv, got, tt.want)
		}
	}
}

func TestCompareGrids(t *testing.T) {
	ours := placeGrid([]string{"a\tb", "", "\t\"x\u2028y\""})
	lo := csvGrid([]byte("a,c,,\n,,,\n,\"x\ny\",,\n,,,\n"))
	cells, equal, diffs := compareGrids(ours, lo)
	want := []cellDiff{{row: 1, col: 2, ours: "b", lo: "c"}}
	if cells != 3 || equal != 2 || !reflect.DeepEqual(diffs, want) {
		t.Errorf("compareGrids = %d, %d, %v; want 3, 2, %v", cells, equal, diffs, want)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		ours, lo       string
		formula, pivot bool
		want           string
	}{
		{ours: "", lo: "12", want: "empty in fumibako, LibreOffice shows a number"},
		{ours: "", lo: "12", formula: true, want: kindFormula},
		{ours: "5.0731", lo: "11.067", pivot: true, want: kindPivot},
		{ours: "TRUE", lo: "1899/12/31", pivot: true, want: "boolean: fumibako TRUE/FALSE, LibreOffice 1/0 under a date format"},
		{ours: "-3.141592654", lo: "-3.1415926535", want: "General: fumibako rounds to 11 characters, LibreOffice shows more digits"},
		{ours: "4.90123E+12", lo: "4901234567894", want: "General: exponent form in fumibako («0.0E+0»), all digits in LibreOffice («0»)"},
		{ours: "1.041392685", lo: "1.04139268515823", formula: true, want: "General: fumibako rounds to 11 characters, LibreOffice shows more digits"},
		{ours: "2009/10/3", lo: "2009/10/03", want: "zero padding: fumibako unpadded, LibreOffice «0000/00/00»"},
		{ours: "6:15 AM", lo: "6:15 午前", want: "AM/PM: fumibako AM/PM, LibreOffice 午前/午後"},
		{ours: "01Jan60 00:00:01", lo: "011月60 00:00:01", want: "month names: fumibako English, LibreOffice Japanese"},
		{ours: "TRUE", lo: "1", formula: true, want: "boolean: fumibako TRUE/FALSE, LibreOffice 1/0"},
		{ours: "FALSE", lo: "1", formula: true, want: kindFormula},
		{ours: "1,600", lo: "1,599.99", want: "rounding: fumibako fewer decimals («0,0» vs «0,0.0»)"},
		{ours: "$102.31 ", lo: "$102.30 ", want: "rounding of the last digit («$0.0 »)"},
		{ours: "$102.31 ", lo: "$102.30 ", formula: true, want: kindFormula},
		{ours: "0", lo: "1", want: "different numbers: fumibako «0», LibreOffice «0»"},
		{ours: "62.20387202", lo: "61.1752800549887", want: "different numbers: fumibako «0.0», LibreOffice «0.0»"},
		{ours: "#DIV/0!", lo: "Err:502", want: "error value: fumibako «#DIV/0!», LibreOffice «Err:502»"},
	}
	for _, tt := range tests {
		if got := classify(tt.ours, tt.lo, tt.formula, tt.pivot); got != tt.want {
			t.Errorf("classify(%q, %q, %v, %v) = %q, want %q", tt.ours, tt.lo, tt.formula, tt.pivot, got, tt.want)
		}
	}
}

func TestReadSheetsXLSX(t *testing.T) {
	p := filepath.Join(t.TempDir(), "book.xlsx")
	writeBook(t, p)
	got, err := readSheets(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []sheetInfo{
		{name: "売上", formulas: map[cellPos]bool{{1, 5}: true}},
		{name: "隠し", hidden: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readSheets = %+v, want %+v", got, want)
	}
}
