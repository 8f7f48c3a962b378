package all_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// TestZipOverlapBomb: a package whose entries share one compressed chunk
// (an overlap bomb: every sheet or slide the workbook lists points at the
// same deflate stream) is refused as a broken ZIP when it is opened,
// before anything is inflated, by every package reader (OOXML and ODF go
// through the one check of ooxml.NewPackage); the log says why.
func TestZipOverlapBomb(t *testing.T) {
	const copies = 9 // the fixture builders number sheets and slides with one digit
	names := func(format string) []string {
		var ns []string
		for i := 2; i <= copies; i++ {
			ns = append(ns, fmt.Sprintf(format, i))
		}
		return ns
	}
	var rows strings.Builder
	for r := 1; r <= 2000; r++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>爆弾の中身 %d</t></is></c></row>`, r, r, r)
	}
	// The workbook lists copies sheets; only sheet1.xml has bytes of its own.
	var sheets []string
	for i := 1; i <= copies; i++ {
		sheets = append(sheets, fmt.Sprintf("S%d", i), "", "")
	}
	xlsxPs := fixture.XlsxParts(nil, sheets...)
	var kept []fixture.Part
	for _, p := range xlsxPs {
		if strings.HasPrefix(p.Name, "xl/worksheets/sheet") && p.Name != "xl/worksheets/sheet1.xml" {
			continue
		}
		if p.Name == "xl/worksheets/sheet1.xml" {
			p.Body = strings.Replace(p.Body, "<sheetData></sheetData>", "<sheetData>"+rows.String()+"</sheetData>", 1)
		}
		kept = append(kept, p)
	}
	xlsxBomb := fixture.OverlapZip(t, fixture.ZipBytes(t, kept...), "xl/worksheets/sheet1.xml", names("xl/worksheets/sheet%d.xml")...)

	var slideList []string
	for i := 1; i <= copies; i++ {
		slideList = append(slideList, fmt.Sprintf("ppt/slides/slide%d.xml", i))
	}
	pptxBomb := fixture.OverlapZip(t, fixture.ZipBytes(t, fixture.PptxParts(slideList,
		fixture.Part{Name: "ppt/slides/slide1.xml", Body: fixture.PSlide("", fixture.PSp("", strings.Repeat("爆弾の中身 ", 20000)))})...),
		"ppt/slides/slide1.xml", names("ppt/slides/slide%d.xml")...)

	docxBomb := fixture.OverlapZip(t, fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("本文"), nil)...), "word/document.xml", "word/header1.xml")

	odt, err := os.ReadFile(filepath.Join("..", "odf", "testdata", "text.odt"))
	if err != nil {
		t.Fatal(err)
	}
	odtBomb := fixture.OverlapZip(t, odt, "content.xml", "Object 1/content.xml")

	tests := []struct {
		name string
		data []byte
	}{
		{"爆弾.xlsx", xlsxBomb},
		{"爆弾.pptx", pptxBomb},
		{"爆弾.docx", docxBomb},
		{"爆弾.odt", odtBomb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A small total budget: a reader that inflated the copies
			// would fail with MsgTooLarge instead.
			res, err := fixture.ExtractBytes(t, tt.name, tt.data, extract.Options{Limits: extract.Limits{ZipTotalBytes: 1 << 20}})
			var fe *extract.Error
			if !errors.As(err, &fe) {
				t.Fatalf("Extract = %v places, %v; want a failure", res != nil, err)
			}
			if !strings.HasPrefix(fe.Msg, extract.MsgCorrupt) || !errors.Is(err, ooxml.ErrOverlap) {
				t.Errorf("Msg = %q, err = %v; want %q with ooxml.ErrOverlap", fe.Msg, err, extract.MsgCorrupt)
			}
			if !strings.Contains(strings.Join(fe.Log, "\n"), "ZIP 爆弾の疑い") {
				t.Errorf("Log = %q, want the overlap line", fe.Log)
			}
		})
	}
}
