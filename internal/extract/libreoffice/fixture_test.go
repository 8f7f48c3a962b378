package libreoffice

import (
	"archive/zip"
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// Legacy fixtures are made by LibreOffice itself from small documents
// written here: a minimal .xlsx and .docx (archive/zip by hand) and a flat
// ODF presentation (.fodp, one XML file), converted to .xls, .doc and .ppt
// by soffice in the test. Tests that need them skip when LibreOffice is not
// installed.

func lgZip(t testing.TB, parts [][2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range parts {
		f, err := w.Create(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(p[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const lgXMLHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

// lgXLSX is a workbook with one sheet named sheet whose row i holds
// rows[i] as inline strings.
func lgXLSX(t testing.TB, sheet string, rows [][]string) []byte {
	var sd strings.Builder
	for i, r := range rows {
		sd.WriteString(`<row r="` + strconv.Itoa(i+1) + `">`)
		for j, c := range r {
			sd.WriteString(`<c r="` + string(rune('A'+j)) + strconv.Itoa(i+1) + `" t="inlineStr"><is><t>` + html.EscapeString(c) + `</t></is></c>`)
		}
		sd.WriteString(`</row>`)
	}
	return lgZip(t, [][2]string{
		{"[Content_Types].xml", lgXMLHead + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
			`</Types>`},
		{"_rels/.rels", lgXMLHead + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
			`</Relationships>`},
		{"xl/workbook.xml", lgXMLHead + `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			`<sheets><sheet name="` + html.EscapeString(sheet) + `" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", lgXMLHead + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`</Relationships>`},
		{"xl/worksheets/sheet1.xml", lgXMLHead + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
			sd.String() + `</sheetData></worksheet>`},
	})
}

// lgDOCX is a document with one paragraph per element of paras.
func lgDOCX(t testing.TB, paras []string) []byte {
	var body strings.Builder
	for _, p := range paras {
		body.WriteString(`<w:p><w:r><w:t>` + html.EscapeString(p) + `</w:t></w:r></w:p>`)
	}
	return lgZip(t, [][2]string{
		{"[Content_Types].xml", lgXMLHead + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
			`</Types>`},
		{"_rels/.rels", lgXMLHead + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
			`</Relationships>`},
		{"word/document.xml", lgXMLHead + `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			body.String() + `</w:body></w:document>`},
	})
}

// lgFODP is a flat ODF presentation with one text box per slide.
func lgFODP(slides []string) []byte {
	var pages strings.Builder
	for i, s := range slides {
		pages.WriteString(`<draw:page draw:name="page` + strconv.Itoa(i+1) + `"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm">` +
			`<draw:text-box><text:p>` + html.EscapeString(s) + `</text:p></draw:text-box></draw:frame></draw:page>`)
	}
	return []byte(lgXMLHead + `<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"` +
		` xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"` +
		` xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"` +
		` xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"` +
		` office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">` +
		`<office:body><office:presentation>` + pages.String() + `</office:presentation></office:body></office:document>`)
}

// lgNeedSoffice returns LibreOffice's soffice, or stops the test through
// testutil.Unavailable (a failure where CI installs it).
func lgNeedSoffice(t testing.TB) string {
	t.Helper()
	p, err := Find()
	if err != nil {
		testutil.Unavailable(t, "LibreOffice not installed (%v): apt-get install libreoffice-core-nogui libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui", err)
	}
	return p
}

// lgFixtures holds the generated legacy files and the tokens each must
// yield.
type lgFixture struct {
	path   string
	tokens []string
}

// lgFixtures writes the source documents into dir and converts them
// with soffice to .xls, .doc and .ppt (one soffice call per format, with a
// profile of its own under dir).
func lgFixtures(t testing.TB, soffice, dir string) map[string]lgFixture {
	t.Helper()
	src := map[string]struct {
		name   string
		data   []byte
		target string
		tokens []string
	}{
		".xls": {"book.xlsx", lgXLSX(t, "売上", [][]string{{"見積番号", "A-123"}, {}, {"合計", "税込"}}), "xls", []string{"見積番号\tA-123", "合計\t税込"}},
		".doc": {"memo.docx", lgDOCX(t, []string{"稟議書", "承認をお願いします"}), "doc", []string{"稟議書", "承認をお願いします"}},
		".ppt": {"deck.fodp", lgFODP([]string{"四半期報告", "次期計画"}), "ppt", []string{"四半期報告", "次期計画"}},
	}
	out := map[string]lgFixture{}
	profile := filepath.Join(dir, "fixture-profile")
	for ext, s := range src {
		if err := os.WriteFile(filepath.Join(dir, s.name), s.data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		filter := map[string]string{"xls": "MS Excel 97", "doc": "MS Word 97", "ppt": "MS PowerPoint 97"}[s.target]
		cmd := exec.CommandContext(ctx, soffice, "--headless", "--norestore", "--nolockcheck",
			"-env:UserInstallation="+FileURL(profile), "--convert-to", s.target+":"+filter, "--outdir", dir, s.name)
		cmd.Dir = dir
		cmd.Cancel = func() error { killTree(cmd.Process.Pid); return cmd.Process.Kill() }
		msg, err := cmd.CombinedOutput()
		cancel()
		p := filepath.Join(dir, strings.TrimSuffix(s.name, filepath.Ext(s.name))+ext)
		if _, serr := os.Stat(p); serr != nil {
			t.Fatalf("soffice --convert-to %s %s: %v, %v: %s", s.target, s.name, err, serr, msg)
		}
		out[ext] = lgFixture{path: p, tokens: s.tokens}
	}
	return out
}

// lgAllLines joins every line of every place, one per line.
func lgAllLines(r *extract.Result) string {
	var b strings.Builder
	for _, p := range r.Places {
		for _, l := range p.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
