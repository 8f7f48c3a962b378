package extract_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

func TestTargetsAndVersions(t *testing.T) {
	if n := len(extract.OfficeExtensions) + len(extract.TextExtensions); n != 85 {
		t.Errorf("target extensions = %d, want the reference's 85", n)
	}
	tests := []struct {
		name    string
		target  bool
		kind    extract.Kind
		version int
	}{
		{"見積.xlsx", true, extract.KindExcel, 4},
		{"報告書.DOCX", true, extract.KindWord, 5},
		{"古い.xls", true, extract.KindExcel, 3},
		{"古い.xlsb", true, extract.KindExcel, 3},
		{"古い.doc", true, extract.KindWord, 7},
		{"古い.ppt", true, extract.KindPowerPoint, 4},
		{"a.pptm", true, extract.KindPowerPoint, 4},
		{"memo.txt", true, extract.KindText, 1},
		{"run.sh", true, extract.KindText, 1},
		{"議事録.odt", true, extract.KindWord, 1},
		{"平文.fodt", true, extract.KindWord, 1},
		{"古い.RTF", true, extract.KindWord, 1},
		{"売上.ods", true, extract.KindExcel, 1},
		{"売上.fods", true, extract.KindExcel, 1},
		{"報告.odp", true, extract.KindPowerPoint, 1},
		{"報告.fodp", true, extract.KindPowerPoint, 1},
		{"図.odg", false, "", 0},
		{"~$見積.xlsx", false, "", 0},
		{"a.pdf", true, extract.KindPDF, 6},
		{"スキャン.PDF", true, extract.KindPDF, 6},
		{"写真.JPG", true, extract.KindImage, 1},
		{"fax.tif", true, extract.KindImage, 1},
		{"a.ts", false, "", 0},
		{"a.xltx", false, "", 0},
		{"noext", false, "", 0},
	}
	for _, tt := range tests {
		if got := extract.IsTarget(tt.name); got != tt.target {
			t.Errorf("IsTarget(%q) = %v, want %v", tt.name, got, tt.target)
		}
		if !tt.target {
			continue
		}
		if k, _ := extract.KindOf(tt.name); k != tt.kind {
			t.Errorf("KindOf(%q) = %v, want %v", tt.name, k, tt.kind)
		}
		if v := extract.Version(tt.name); v != tt.version {
			t.Errorf("Version(%q) = %d, want %d", tt.name, v, tt.version)
		}
	}
}
