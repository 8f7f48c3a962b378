package xlsx

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff12"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

func FuzzXlsb(f *testing.F) {
	basic := fixture.BasicXlsb(f, false)
	fixture.NativeFuzzSeeds(f, map[string][]byte{
		"package":    fixture.XlsbPackage(f, basic),
		"sheet":      basic["xl/worksheets/sheet1.bin"],
		"date1904":   fixture.XlsbPackage(f, fixture.BasicXlsb(f, true)),
		"header-row": fixture.Brt(biff12.RowHdr, uint32(1048575), make([]byte, 13)),
	})
	old := sheet.TextCap
	sheet.TextCap = 8 << 20
	defer func() { sheet.TextCap = old }()
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte("PK")) {
			parts := fixture.BasicXlsb(t, false)
			parts["xl/worksheets/sheet1.bin"] = data
			data = fixture.XlsbPackage(t, parts)
		}
		p := filepath.Join(t.TempDir(), "f.xlsb")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Odd lengths read hidden sheets too (issue 31).
		res, err := readXlsbNative(context.Background(), p, extract.Options{Scratch: t.TempDir(), Limits: fixture.FuzzOptions.Limits, HiddenSheets: len(data)%2 == 1})
		fixture.CheckNative(t, res, err)
	})
}
