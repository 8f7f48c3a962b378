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

	"github.com/fumibako/fumibako/internal/extract"
)

// TestRun runs the command on one generated workbook: a visible sheet
// whose cells both sides show alike, one cell under General that only
// fumibako turns into exponent form, and a hidden sheet, which must be
// excluded though LibreOffice exports it.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts LibreOffice")
	}
	soffice, err := extract.FindLibreOffice()
	if err != nil {
		t.Skip("LibreOffice (soffice) not found: nothing to compare with")
	}
	corpus := t.TempDir()
	writeBook(t, filepath.Join(corpus, "book.xlsx"))

	var out bytes.Buffer
	cfg := config{corpus: corpus, soffice: soffice, timeout: 2 * time.Minute, kinds: 20}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	t.Log("\n" + got)
	for _, want := range []*regexp.Regexp{
		// 8 cells, 7 equal; 1 sheet compared, 1 hidden excluded.
		regexp.MustCompile(`(?m)^book\.xlsx +1 +1 +8 +7 +1 +87\.50% `),
		regexp.MustCompile(`(?m)^\.xlsx / \.xlsm: 7 of 8 cells equal \(87\.50%\) in 1 sheets of 1 files; 1 hidden sheets excluded; 0 files not compared$`),
		regexp.MustCompile(`(?m)^ 1\. General: exponent form in fumibako \(«0\.0E\+0»\), all digits in LibreOffice \(«0»\): 1 cells in 1 files$`),
		regexp.MustCompile(`(?m)^    e\.g\. book\.xlsx!売上!B4: fumibako «4\.90123E\+12», LibreOffice «4901234567894»$`),
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
	if want := "| `book.xlsx` | 1 | 1 | 8 | 7 | 1 | 87.50% |  |\n"; !strings.Contains(out.String(), want) {
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
	tests := []struct{ ours, lo, want string }{
		{"", "12", "empty in fumibako, LibreOffice shows a number"},
		{"4.90123E+12", "4901234567894", "General: exponent form in fumibako («0.0E+0»), all digits in LibreOffice («0»)"},
		{"2009/10/3", "2009/10/03", "zero padding: fumibako unpadded, LibreOffice «0000/00/00»"},
		{"6:15 AM", "6:15 午前", "AM/PM: fumibako AM/PM, LibreOffice 午前/午後"},
		{"1,600", "1,599.99", "rounding: fumibako fewer decimals («0,0» vs «0,0.0»)"},
		{"#DIV/0!", "Err:502", "error value: fumibako «#DIV/0!», LibreOffice «Err:502»"},
	}
	for _, tt := range tests {
		if got := classify(tt.ours, tt.lo); got != tt.want {
			t.Errorf("classify(%q, %q) = %q, want %q", tt.ours, tt.lo, got, tt.want)
		}
	}
}

func TestSheetStatesXLSX(t *testing.T) {
	p := filepath.Join(t.TempDir(), "book.xlsx")
	writeBook(t, p)
	got, err := sheetStates(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []sheetState{{name: "売上"}, {name: "隠し", hidden: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sheetStates = %v, want %v", got, want)
	}
}
