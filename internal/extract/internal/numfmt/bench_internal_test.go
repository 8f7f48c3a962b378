package numfmt

import (
	"testing"

	"github.com/xuri/excelize/v2"
)

// BenchmarkXlsNumberFormat measures the two ways the native readers could
// show a number through its format (DESIGN.md: reuse rather than write a
// formatter): the formatter the .xlsx reader already uses (compiled once
// per format, as sheet.Styles caches it), and excelize's, reachable only
// through a workbook: a cell written with the style and read back.
//
//	go test -run '^$' -bench BenchmarkXlsNumberFormat ./internal/extract/
func BenchmarkXlsNumberFormat(b *testing.B) {
	const code = `yyyy"年"m"月"d"日"`
	const v = 45306.75
	b.Run("xlsx-reader-formatter", func(b *testing.B) {
		f := Compile(code)
		for i := 0; i < b.N; i++ {
			if f.Number(v, false) != "2024年1月15日" {
				b.Fatal("unexpected display value")
			}
		}
	})
	b.Run("excelize-workbook", func(b *testing.B) {
		x := excelize.NewFile()
		defer x.Close()
		style, err := x.NewStyle(&excelize.Style{CustomNumFmt: &[]string{code}[0]})
		if err != nil {
			b.Fatal(err)
		}
		if err := x.SetCellStyle("Sheet1", "A1", "A1", style); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			if err := x.SetCellValue("Sheet1", "A1", v); err != nil {
				b.Fatal(err)
			}
			s, err := x.GetCellValue("Sheet1", "A1")
			if err != nil || s == "" {
				b.Fatal(s, err)
			}
			if i == 0 {
				b.Logf("excelize shows %q", s)
			}
		}
	})
}
