package xlsx_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/xuri/excelize/v2"
)

// xlsxBenchRows is the row count of the benchmark workbook.
const xlsxBenchRows = 20000

// xlsxBenchWorkbook writes a workbook of xlsxBenchRows rows: text (shared
// strings), a #,##0 number, a date, a percentage, a General decimal and a
// boolean per row.
func xlsxBenchWorkbook(tb testing.TB, path string) {
	tb.Helper()
	f := excelize.NewFile()
	num := fixture.XlsxStyle(tb, f, "", 3)
	date := fixture.XlsxStyle(tb, f, "", 14)
	pct := fixture.XlsxStyle(tb, f, "", 10)
	sw, err := f.NewStreamWriter("Sheet1")
	fixture.XlsxNoErr(tb, err)
	names := []string{"りんご", "みかん", "ぶどう", "もも", "なし"}
	for r := 1; r <= xlsxBenchRows; r++ {
		cell, err := excelize.CoordinatesToCellName(1, r)
		fixture.XlsxNoErr(tb, err)
		fixture.XlsxNoErr(tb, sw.SetRow(cell, []any{
			names[r%len(names)] + "の出荷記録",
			excelize.Cell{StyleID: num, Value: r * 1234},
			excelize.Cell{StyleID: date, Value: 45000 + r%3650},
			excelize.Cell{StyleID: pct, Value: float64(r%1000) / 1000},
			float64(r) / 7,
			r%2 == 0,
		}))
	}
	fixture.XlsxNoErr(tb, sw.Flush())
	fixture.XlsxNoErr(tb, f.SaveAs(path))
	fixture.XlsxNoErr(tb, f.Close())
}

// BenchmarkXlsxRows extracts a 20,000-row workbook and reports rows/s.
func BenchmarkXlsxRows(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "bench.xlsx")
	xlsxBenchWorkbook(b, path)
	st, err := os.Stat(path)
	fixture.XlsxNoErr(b, err)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := extract.Extract(context.Background(), path, "bench.xlsx", extract.Options{Scratch: dir})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Places[0].Lines); n != xlsxBenchRows {
			b.Fatalf("got %d lines, want %d", n, xlsxBenchRows)
		}
	}
	b.ReportMetric(float64(xlsxBenchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkXlsxSmall extracts the small "objects" fixture (cells, shapes,
// a chart, SmartArt, comments, header/footer) and reports files/s.
func BenchmarkXlsxSmall(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "small.xlsx")
	fixture.XlsxNoErr(b, os.WriteFile(path, fixture.XlsxObjects(b), 0o644))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := extract.Extract(context.Background(), path, "small.xlsx", extract.Options{Scratch: dir}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
