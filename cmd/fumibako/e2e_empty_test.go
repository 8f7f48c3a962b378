package main

import (
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestEmptyFilesOneRule: a zero-byte file is 済 with no place files,
// whatever its extension (extract.Extract: an empty file holds nothing),
// where zero-byte .xls, .xlsb and .doc used to be 済 and .xlsx, .docx and
// .ppt 失敗.
func TestEmptyFilesOneRule(t *testing.T) {
	f := newFixture(t)
	exts := []string{".xlsx", ".xlsm", ".xls", ".xlsb", ".docx", ".docm", ".doc", ".pptx", ".pptm", ".ppt",
		".txt", ".csv", ".pdf", ".odt", ".ods", ".odp", ".fodt", ".fods", ".fodp", ".rtf"}
	for _, e := range exts {
		f.write("空"+e, "")
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	for _, e := range exts {
		if r := f.row("空" + e); r.State != ingestlist.Done || r.TSVCount != 0 || r.Error != "" {
			t.Errorf("空%s row = %+v, want 済 with TSV数 0", e, r)
		}
	}
}
