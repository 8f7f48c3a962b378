package xlsx_test

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// xlsxFuzzLimits keep fuzzed inputs small and fast.
var xlsxFuzzLimits = extract.Limits{ZipPartBytes: 1 << 20, ZipTotalBytes: 4 << 20, ZipEntries: 200, XMLDepth: 64}

// FuzzXlsx feeds whole files, seeded with the golden fixtures. The seeds
// are some kilobytes, so minimizing a new input takes long: run with a
// short -fuzzminimizetime (go test -fuzz FuzzXlsx -fuzztime 20s
// -fuzzminimizetime 3s).
func FuzzXlsx(f *testing.F) {
	for _, build := range fixture.XlsxBuilders {
		f.Add(build(f))
	}
	f.Add(xlsxMinimal(f, map[string]string{"S": `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`}))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := xlsxExtract(t, data, "fuzz.xlsx", xlsxFuzzLimits)
		fixture.CheckNative(t, res, err)
	})
}

// xlsxPartsOf returns the named parts of a package.
func xlsxPartsOf(tb testing.TB, data []byte, names ...string) []string {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	fixture.XlsxNoErr(tb, err)
	out := make([]string, len(names))
	for _, zf := range zr.File {
		for i, n := range names {
			if zf.Name == n {
				rc, err := zf.Open()
				fixture.XlsxNoErr(tb, err)
				b, err := io.ReadAll(rc)
				fixture.XlsxNoErr(tb, err)
				rc.Close()
				out[i] = string(b)
			}
		}
	}
	return out
}

// FuzzXlsxParts feeds the XML of the parts the reader parses (a
// worksheet, shared strings, styles, a drawing and legacy and threaded
// comments) inside a valid package, so mutations reach the parsers rather
// than the ZIP checksums.
func FuzzXlsxParts(f *testing.F) {
	names := []string{"xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/styles.xml", "xl/drawings/drawing1.xml", "xl/comments1.xml", "xl/threadedComments/threadedComment1.xml"}
	for _, build := range []func(testing.TB) []byte{fixture.XlsxCells, fixture.XlsxObjects} {
		p := xlsxPartsOf(f, build(f), names...)
		f.Add(p[0], p[1], p[2], p[3], p[4], p[5])
	}
	base := fixture.XlsxObjects(f)
	f.Fuzz(func(t *testing.T, sheet, sst, styles, drawing, comments, threaded string) {
		repl := map[string]string{names[0]: sheet, names[1]: sst, names[2]: styles, names[3]: drawing, names[4]: comments, names[5]: threaded}
		data := fixture.XlsxPatch(t, base, func(n string, b []byte) []byte {
			if s, ok := repl[n]; ok {
				delete(repl, n)
				return []byte(s)
			}
			return b
		}, repl)
		res, err := xlsxExtract(t, data, "fuzz.xlsx", xlsxFuzzLimits)
		fixture.CheckNative(t, res, err)
	})
}
