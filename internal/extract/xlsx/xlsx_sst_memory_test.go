package xlsx_test

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
)

// sstBomb is a workbook whose shared string table holds n copies of si
// (written in one piece, compressed) and whose one sheet shows the last
// string in A1, so the table is held while the sheet is read.
func sstBomb(tb testing.TB, n int, si string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add("_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	add("xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	add("xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`+
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`)
	add("xl/worksheets/sheet1.xml", `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>`+strconv.Itoa(n)+`</v></c></row></sheetData></worksheet>`)
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		tb.Fatal(err)
	}
	w.Write([]byte(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`))
	chunk := []byte(strings.Repeat(si, 4096))
	for i := 0; i < n; i += 4096 {
		w.Write(chunk[:min(4096, n-i)*len(si)])
	}
	w.Write([]byte(`<si><t>最後の文字列</t></si></sst>`))
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestXlsxSharedStringMemory: the shared string table of a small file
// with millions of strings stays small in memory: an empty string costs
// about two bits, a short one its bytes plus a 4-byte offset. Measured as
// the bytes allocated while the workbook is read (runtime.MemStats), not
// as time.
func TestXlsxSharedStringMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 20 MB shared string tables")
	}
	tests := []struct {
		name     string
		n        int
		si       string
		maxAlloc uint64 // bytes allocated, as a share of the part's size
	}{
		// 4 M empty strings, a 20 MB part (about 25 KB compressed): at
		// most a fifth of the part (8 bytes per string would be 32 MB).
		{"empty strings", 4_000_000, `<si/>`, 4_000_000 * 5 / 5},
		// 1 M one-character strings, a 17 MB part: less than the part.
		{"short strings", 1_000_000, `<si><t>a</t></si>`, 1_000_000 * 17},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := sstBomb(t, tt.n, tt.si)
			dir := t.TempDir()
			path := filepath.Join(dir, "bomb.xlsx")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			data = nil
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := extract.Extract(t.Context(), path, "bomb.xlsx", extract.Options{Scratch: dir})
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if len(res.Places) != 1 || len(res.Places[0].Lines) != 1 || res.Places[0].Lines[0] != "最後の文字列" {
				t.Errorf("places = %+v, want A1 = the last shared string", res.Places)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d strings: %d KB allocated", tt.n, alloc>>10)
			if alloc > tt.maxAlloc {
				t.Errorf("reading allocated %d KB, want at most %d KB", alloc>>10, tt.maxAlloc>>10)
			}
		})
	}
}
