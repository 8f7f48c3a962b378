package xlsx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestXlsbSheetJSShortRecords reads workbooks written by SheetJS, which
// stores every cell after the first of a row as a short cell record
// (BrtShort*, column implied), and compares every cell with LibreOffice's
// CSV of the same file (testdata/sheetjs/gen.sh).
func TestXlsbSheetJSShortRecords(t *testing.T) {
	dir := filepath.Join("testdata", "sheetjs")
	want := map[string][]string{}
	for name, csv := range map[string]string{"短い": "libreoffice-sheet1.csv", "Sheet2": "libreoffice-sheet2.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, csv))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			want[name] = append(want[name], strings.TrimRight(line, "\t"))
		}
	}
	for _, file := range []string{"short.xlsb", "short-inline.xlsb"} {
		t.Run(file, func(t *testing.T) {
			res, err := readXlsbNative(context.Background(), filepath.Join(dir, file), extract.Options{Scratch: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, p := range res.Places {
				got[p.Name] = p.Lines
			}
			for name, lines := range want {
				if strings.Join(got[name], "\n") != strings.Join(lines, "\n") {
					t.Errorf("sheet %s:\n%s\nwant (LibreOffice):\n%s", name, strings.Join(got[name], "\n"), strings.Join(lines, "\n"))
				}
			}
		})
	}
}
