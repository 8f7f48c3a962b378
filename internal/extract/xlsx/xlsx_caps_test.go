package xlsx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
)

// TestXlsxCellDataCaps: worksheets and the shared string table are held to
// DESIGN.md's ZIP limits themselves (one part at most Limits.ZipPartBytes,
// all parts of the file together at most Limits.ZipTotalBytes), not to a
// multiple of them. The caps are injected small; the defaults are the
// same fields (100 MB / 300 MB).
func TestXlsxCellDataCaps(t *testing.T) {
	sheetOf := func(n int) string {
		head := `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`
		tail := `</t></is></c></row></sheetData></worksheet>`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	const size = 20000
	one := xlsxMinimal(t, map[string]string{"S": sheetOf(size)})
	sst := xlsxWithStrings(t, size)
	two := xlsxMinimal(t, map[string]string{"S": sheetOf(size), "T": sheetOf(size)})
	tests := []struct {
		name string
		data []byte
		lim  extract.Limits
		fail bool
	}{
		{"sheet at the part cap", one, extract.Limits{ZipPartBytes: size}, false},
		{"sheet one byte over the part cap", one, extract.Limits{ZipPartBytes: size - 1}, true},
		{"shared strings at the part cap", sst, extract.Limits{ZipPartBytes: size}, false},
		{"shared strings one byte over the part cap", sst, extract.Limits{ZipPartBytes: size - 1}, true},
		{"sheets within the total cap", two, extract.Limits{ZipTotalBytes: 3 * size}, false},
		{"sheets over the total cap", two, extract.Limits{ZipTotalBytes: 2*size - 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := xlsxExtract(t, tt.data, "caps.xlsx", tt.lim)
			if !tt.fail {
				if err != nil {
					t.Fatalf("Extract: %v", err)
				}
				if len(res.Places) == 0 || !strings.Contains(strings.Join(res.Places[0].Lines, ""), "xxxx") {
					t.Errorf("cells not read: %+v", res.Places)
				}
				return
			}
			var fe *extract.Error
			if !errors.As(err, &fe) || fe.Msg != extract.MsgTooLarge {
				t.Fatalf("Extract error = %v, want %q", err, extract.MsgTooLarge)
			}
		})
	}
}

// xlsxWithStrings is a one-sheet workbook whose cell A1 is shared string 0
// and whose shared string table (xl/sharedStrings.xml) is n bytes long.
func xlsxWithStrings(tb testing.TB, n int) []byte {
	head := `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>`
	tail := `</t></si></sst>`
	return xlsxZipOf(tb, map[string]string{
		"_rels/.rels":     `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml": `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`,
		"xl/sharedStrings.xml":     head + strings.Repeat("x", n-len(head)-len(tail)) + tail,
	})
}
