package ingest

import (
	"archive/zip"
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkLargeXlsx measures the peak memory of ingesting one large
// workbook through a real `fumibako index` (DESIGN.md: worker memory ≤ 300
// MB RSS on a large .xlsx). The workbook is as large as the extraction
// limits accept: one sheet of about 95 MB of XML (240,000 rows × 10 cells,
// shared strings, numbers and dates), about 12 MB as a file. The reported
// RSS is the largest of the run's processes (the coordinator waits for its
// workers, so wait4 reports the worker's peak too).
//
//	go test ./bench/ingest -bench LargeXlsx -benchtime 1x
func BenchmarkLargeXlsx(b *testing.B) {
	exe := build(b)
	dir := b.TempDir()
	src := filepath.Join(dir, "src")
	xml, size := writeLargeXlsx(b, filepath.Join(src, "大きい.xlsx"), 240_000)
	for i := 0; i < b.N; i++ {
		ws := filepath.Join(dir, fmt.Sprintf("ws%d", i))
		run := func(args ...string) (*os.ProcessState, string) {
			cmd := exec.Command(exe, append([]string{"--workspace", ws}, args...)...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				b.Fatalf("%v: %v\n%s", args, err, out)
			}
			return cmd.ProcessState, string(out)
		}
		run("folder", "add", src)
		t0 := time.Now()
		st, out := run("index", "--plain", "--workers", "1")
		d := time.Since(t0)
		if !strings.Contains(out, "（成功: 1 件 / 失敗: 0 件）") {
			b.Fatalf("the workbook was not ingested:\n%s", out)
		}
		rss, ok := peakRSSMB(st)
		if !ok {
			b.Skip("peak RSS is read from getrusage, which this OS reports differently")
		}
		b.ReportMetric(rss, "MB-peak-RSS")
		b.ReportMetric(d.Seconds(), "s/file")
		b.Logf("workbook %.1f MB, sheet XML %.1f MB: indexed in %.1f s, peak RSS %.0f MB (target ≤ 300)",
			float64(size)/1e6, float64(xml)/1e6, d.Seconds(), rss)
	}
}

// writeLargeXlsx streams a workbook of rows × 10 cells and returns the
// size of its sheet XML and of the file.
func writeLargeXlsx(b *testing.B, path string, rows int) (xmlBytes, fileBytes int64) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw := zip.NewWriter(f)
	part := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			b.Fatal(err)
		}
	}
	const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	part("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`+
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`+
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+
		`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`+
		`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`+
		`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`)
	part("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="`+rel+`/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	part("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="`+rel+`">`+
		`<sheets><sheet name="売上" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	part("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="`+rel+`/worksheet" Target="worksheets/sheet1.xml"/>`+
		`<Relationship Id="rId2" Type="`+rel+`/sharedStrings" Target="sharedStrings.xml"/>`+
		`<Relationship Id="rId3" Type="`+rel+`/styles" Target="styles.xml"/></Relationships>`)
	part("xl/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`+
		`<numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0"/></numFmts>`+
		`<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`)
	const nStrings = 50_000
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, nStrings, nStrings)
	for i := 0; i < nStrings; i++ {
		fmt.Fprintf(bw, "<si><t>取引先%05d 株式会社 見積 No.%d</t></si>", i, i*7)
	}
	bw.WriteString("</sst>")
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	w, err = zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		b.Fatal(err)
	}
	cw := &countWriter{w: w}
	bw = bufio.NewWriterSize(cw, 1<<16)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	cols := "ABCDEFGHIJ"
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(bw, `<row r="%d">`, r)
		for c := 0; c < len(cols); c++ {
			switch c % 4 {
			case 0, 1:
				fmt.Fprintf(bw, `<c r="%c%d" t="s"><v>%d</v></c>`, cols[c], r, (r*31+c*7)%nStrings)
			case 2:
				fmt.Fprintf(bw, `<c r="%c%d" s="2"><v>%d</v></c>`, cols[c], r, r*1234+c)
			default:
				fmt.Fprintf(bw, `<c r="%c%d" s="1"><v>%d</v></c>`, cols[c], r, 40000+r%3000)
			}
		}
		bw.WriteString("</row>")
	}
	bw.WriteString("</sheetData></worksheet>")
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	return cw.n, st.Size()
}

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
