package xlsx_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/testutil"
)

// xlsxExtract writes data to a scratch file named name and extracts it.
func xlsxExtract(tb testing.TB, data []byte, name string, lim extract.Limits) (*extract.Result, error) {
	tb.Helper()
	dir := tb.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	scratch := filepath.Join(dir, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		tb.Fatal(err)
	}
	return extract.Extract(context.Background(), path, name, extract.Options{Scratch: scratch, Limits: lim})
}

// xlsxDump renders a result for golden files: "## <place>" and then one
// Go-quoted line per place line (TAB and U+2028 visible as \t and
// \u2028), then "## log" with the log lines.
func xlsxDump(res *extract.Result) string {
	var b strings.Builder
	for _, p := range res.Places {
		b.WriteString("## " + p.Name + "\n")
		for _, l := range p.Lines {
			b.WriteString(strconv.Quote(l) + "\n")
		}
	}
	if len(res.Log) > 0 {
		b.WriteString("## log\n")
		for _, l := range res.Log {
			b.WriteString(strconv.Quote(l) + "\n")
		}
	}
	return b.String()
}

func TestXlsxGolden(t *testing.T) {
	for name, build := range fixture.XlsxBuilders {
		t.Run(name, func(t *testing.T) {
			res, err := xlsxExtract(t, build(t), name+".xlsx", extract.Limits{})
			if err != nil {
				t.Fatalf("Extract(%s) error: %v", name, err)
			}
			got := xlsxDump(res)
			testutil.Golden(t, filepath.Join("testdata", "xlsx", name+".golden"), []byte(got))
		})
	}
}

// TestXlsxReferenceExample is the worked example of extraction.md §5.3:
// UsedRange C2:E5 with a two-line cell, a quoted cell and a formatted
// trailing row.
func TestXlsxReferenceExample(t *testing.T) {
	sheet := `<?xml version="1.0" encoding="UTF-8"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="C2:E5"/><sheetData>
<row r="2"><c r="C2" t="inlineStr"><is><t>品名</t></is></c><c r="D2" t="inlineStr"><is><t>数量</t></is></c></row>
<row r="4"><c r="C4" t="inlineStr"><is><t xml:space="preserve">りんご
青森産</t></is></c><c r="D4"><v>10</v></c><c r="E4" t="inlineStr"><is><t>特"A"級</t></is></c></row>
<row r="5"><c r="C5" s="0"/><c r="D5" s="0"/></row>
</sheetData></worksheet>`
	res, err := xlsxExtract(t, xlsxMinimal(t, map[string]string{"売上": sheet}), "example.xlsx", extract.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []extract.Place{{Name: "売上", Lines: []string{"", "\t\t品名\t数量", "", "\t\t\"りんご\u2028青森産\"\t10\t\"特\"\"A\"\"級\""}}}
	if len(res.Places) != 1 || res.Places[0].Name != want[0].Name || strings.Join(res.Places[0].Lines, "\n") != strings.Join(want[0].Lines, "\n") {
		t.Errorf("Extract = %q, want %q", res.Places, want)
	}
}

// xlsxMinimal builds a package by hand: one worksheet per entry (in name
// order), inline strings only, no styles.
func xlsxMinimal(tb testing.TB, sheets map[string]string) []byte {
	tb.Helper()
	var names []string
	for n := range sheets {
		names = append(names, n)
	}
	sort.Strings(names)
	var wb, rels, ct strings.Builder
	wb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>`)
	rels.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	ct.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`)
	files := map[string]string{}
	for i, n := range names {
		id := strconv.Itoa(i + 1)
		wb.WriteString(`<sheet name="` + n + `" sheetId="` + id + `" r:id="rId` + id + `"/>`)
		rels.WriteString(`<Relationship Id="rId` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet` + id + `.xml"/>`)
		files["xl/worksheets/sheet"+id+".xml"] = sheets[n]
	}
	wb.WriteString(`</sheets></workbook>`)
	rels.WriteString(`</Relationships>`)
	ct.WriteString(`</Types>`)
	files["[Content_Types].xml"] = ct.String()
	files["_rels/.rels"] = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
	files["xl/workbook.xml"] = wb.String()
	files["xl/_rels/workbook.xml.rels"] = rels.String()
	return xlsxZipOf(tb, files)
}

// xlsxZipOf zips the given parts in name order.
func xlsxZipOf(tb testing.TB, files map[string]string) []byte {
	tb.Helper()
	var parts []fixture.Part
	for _, k := range slices.Sorted(maps.Keys(files)) {
		parts = append(parts, fixture.Part{Name: k, Body: files[k]})
	}
	return fixture.ZipBytes(tb, parts...)
}

func TestXlsxFailures(t *testing.T) {
	cells := fixture.XlsxCells(t)
	bigSheet := `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>` + strings.Repeat("x", 5000) + `</t></is></c></row></sheetData></worksheet>`
	tests := []struct {
		name    string
		data    []byte
		lim     extract.Limits
		msg     string // prefix of the *Error message
		notZip  bool
		wantLog string
	}{
		{name: "truncated", data: cells[:len(cells)/2], msg: extract.MsgCorrupt},
		{name: "broken sheet", data: xlsxMinimal(t, map[string]string{"S": `<worksheet><sheetData><row><c r="A1"><v>1</v></row>`}), msg: extract.MsgCorrupt},
		{name: "DTD", data: xlsxMinimal(t, map[string]string{"S": `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><worksheet><sheetData/></worksheet>`}), msg: extract.MsgCorrupt},
		{name: "deep", data: xlsxMinimal(t, map[string]string{"S": `<worksheet>` + strings.Repeat("<x>", 50) + strings.Repeat("</x>", 50) + `</worksheet>`}), lim: extract.Limits{XMLDepth: 20}, msg: extract.MsgCorrupt},
		{name: "sheet over stream cap", data: xlsxMinimal(t, map[string]string{"S": bigSheet}), lim: extract.Limits{ZipPartBytes: 400}, msg: extract.MsgTooLarge},
		{name: "workbook over part cap", data: cells, lim: extract.Limits{ZipPartBytes: 100}, msg: extract.MsgTooLarge},
		{name: "entries", data: cells, lim: extract.Limits{ZipEntries: 3}, msg: extract.MsgTooLarge},
		{name: "no workbook", data: xlsxZipOf(t, map[string]string{"hello.txt": "hi"}), msg: extract.MsgCorrupt},
		{name: "xlsb inside", data: xlsxZipOf(t, map[string]string{"_rels/.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.bin"/></Relationships>`, "xl/workbook.bin": "\x00"}), msg: extract.MsgCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := xlsxExtract(t, tt.data, "bad.xlsx", tt.lim)
			var fe *extract.Error
			if !errors.As(err, &fe) {
				t.Fatalf("Extract = %v, %v; want *extract.Error", res, err)
			}
			if !strings.HasPrefix(fe.Msg, tt.msg) {
				t.Errorf("Msg = %q, want prefix %q", fe.Msg, tt.msg)
			}
			if got := errors.Is(err, ooxml.ErrNotZip); got != tt.notZip {
				t.Errorf("errors.Is(err, ErrNotZip) = %v, want %v", got, tt.notZip)
			}
		})
	}
}

// TestXlsxBrokenObjects: a broken drawing drops [図形] and [コメント] with
// a log line but keeps cells and header/footer; a broken chart part only
// empties the chart.
func TestXlsxBrokenObjects(t *testing.T) {
	data := fixture.XlsxPatch(t, fixture.XlsxObjects(t), func(n string, b []byte) []byte {
		if n == "xl/drawings/drawing1.xml" {
			return b[:len(b)/2]
		}
		return b
	}, nil)
	res, err := xlsxExtract(t, data, "objects.xlsx", extract.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range res.Places {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, ","), "図,図[ヘッダー・フッター]"; got != want {
		t.Errorf("places = %s, want %s", got, want)
	}
	if len(res.Log) != 1 || !strings.HasPrefix(res.Log[0], "    図形・コメントを読み取れませんでした: ") {
		t.Errorf("log = %q", res.Log)
	}

	data = fixture.XlsxPatch(t, fixture.XlsxObjects(t), func(n string, b []byte) []byte {
		if n == "xl/charts/chart1.xml" {
			return []byte("<c:chartSpace")
		}
		return b
	}, nil)
	res, err = xlsxExtract(t, data, "objects.xlsx", extract.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var shapes []string
	for _, p := range res.Places {
		if p.Name == "図[図形]" {
			shapes = p.Lines
		}
	}
	if strings.Contains(strings.Join(shapes, "\n"), "売上推移") || len(shapes) == 0 {
		t.Errorf("shapes with a broken chart = %q", shapes)
	}
	if got := strings.Join(res.Log, "\n"); got != "    一部を読み取れませんでした: xl/charts/chart1.xml" {
		t.Errorf("log = %q", got)
	}
}

func TestXlsxCanceled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.xlsx")
	if err := os.WriteFile(path, fixture.XlsxCells(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := extract.Extract(ctx, path, "c.xlsm", extract.Options{Scratch: dir})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Extract(canceled) error = %v, want context.Canceled", err)
	}
}
