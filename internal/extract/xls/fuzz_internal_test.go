package xls

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/officefile"
	"golang.org/x/text/encoding/charmap"
)

func FuzzXls(f *testing.F) {
	enc := basicBIFF8(f)
	fixture.NativeFuzzSeeds(f, map[string][]byte{
		"biff8":       basicBIFF8(f),
		"biff5":       biff5Book(f),
		"biff5-cp932": cp932Book(f),
		"biff5-1252":  westernBook(f, 1252, charmap.Windows1252),
		"biff3":       oldBook(f, 3),
		"biff4":       oldBook(f, 4),
		"biff8-cfb":   fixture.CfbFile(f, map[string][]byte{"Workbook": enc}),
		"sst-split":   fixture.BuildBIFF8(nil, nil, fixture.SstRecords(3, 3, fixture.BiffData(fixture.XlStr("a"), uint16(4), uint8(0), "ab"), fixture.BiffData(uint8(1), fixture.U16s("日本"))), nil),
		"date1904":    fixture.BuildBIFF8(func(b *fixture.Biff) { b.Rec(biff.RDateMode, 1) }, []int{14}, nil, []fixture.XlsSheetSpec{{Name: "S", Body: func(b *fixture.Biff) { b.Rec(biff.RNumber, 0, 0, 0, 1.0) }}}),
		"filepass":    fixture.BuildBIFF8(func(b *fixture.Biff) { b.Rec(biff.RFilePass, rc4FilePass(biff.DefaultPassword)) }, nil, nil, []fixture.XlsSheetSpec{{Name: "S"}}),
		"empty-sheet": fixture.BuildBIFF8(nil, nil, nil, []fixture.XlsSheetSpec{{Name: "S"}}),
	})
	old := sheet.TextCap
	sheet.TextCap = 8 << 20
	defer func() { sheet.TextCap = old }()
	f.Fuzz(func(t *testing.T, data []byte) {
		// A bare BIFF3/BIFF4 stream is read as it is (bare.go); anything
		// else goes into a compound file.
		if !bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) && !officefile.IsBIFFStream(data) {
			if len(data) > 60000 {
				data = data[:60000]
			}
			name := "Workbook"
			if len(data) >= 6 && biff.Le16(data, 4) == biff.BIFF5 {
				name = "Book"
			}
			data = fixture.CfbFile(t, map[string][]byte{name: data})
		}
		p := filepath.Join(t.TempDir(), "f.xls")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := fixture.FuzzOptions
		opt.HiddenSheets = len(data)%2 == 1 // both ways of reading hidden sheets (issue 31)
		res, err := readXlsNative(context.Background(), p, opt)
		fixture.CheckNative(t, res, err)
	})
}
