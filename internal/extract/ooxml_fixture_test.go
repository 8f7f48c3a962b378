package extract_test

// Generators for small OOXML packages used by the Word, PowerPoint (and
// any other OOXML) tests: parts are written as XML text into a ZIP with
// archive/zip, so every fixture is readable in the test that uses it.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// part is one ZIP entry of a fixture.
type part struct {
	Name string
	Body string
}

// zipBytes writes the parts, in order, into a ZIP.
func zipBytes(tb testing.TB, parts ...part) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.Name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write([]byte(p.Body)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// rawEntry is a ZIP entry whose header sizes are given by the test (a
// lying or bomb-like header); Data is deflated as is.
type rawEntry struct {
	Name     string
	Data     []byte
	Declared uint64 // uncompressed size written in the headers
}

// zipRaw writes normal parts and raw entries into a ZIP.
func zipRaw(tb testing.TB, parts []part, raws ...rawEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.Name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write([]byte(p.Body))
	}
	for _, r := range raws {
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		fw.Write(r.Data)
		fw.Close()
		h := &zip.FileHeader{Name: r.Name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(r.Data),
			CompressedSize64: uint64(comp.Len()), UncompressedSize64: r.Declared}
		w, err := zw.CreateRaw(h)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(comp.Bytes())
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// writeFile writes data as dir/name and returns the path.
func writeFile(tb testing.TB, dir, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Namespace declarations shared by the fixtures.
const (
	nsDeclW = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
		`xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
		`xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` +
		`xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
		`xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
		`xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" ` +
		`xmlns:v="urn:schemas-microsoft-com:vml" ` +
		`xmlns:o="urn:schemas-microsoft-com:office:office"`
	nsDeclP = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
		`xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` +
		`xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
		`xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`
	relNS     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
)

// relsXML builds a .rels part from id, type suffix, target triples; a type
// starting with "http" is used as is, a target starting with "!" is
// external.
func relsXML(triples ...string) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i := 0; i+2 < len(triples); i += 3 {
		typ := triples[i+1]
		if !strings.HasPrefix(typ, "http") {
			typ = relNS + typ
		}
		target, mode := triples[i+2], ""
		if strings.HasPrefix(target, "!") {
			target, mode = target[1:], ` TargetMode="External"`
		}
		b.WriteString(`<Relationship Id="` + triples[i] + `" Type="` + typ + `" Target="` + target + `"` + mode + `/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// wDocument wraps body XML into word/document.xml.
func wDocument(body string) string {
	return xmlHeader + `<w:document ` + nsDeclW + `><w:body>` + body + `<w:sectPr/></w:body></w:document>`
}

// wPart wraps content into a WordprocessingML root such as w:hdr.
func wPart(root, content string) string {
	return xmlHeader + `<w:` + root + ` ` + nsDeclW + `>` + content + `</w:` + root + `>`
}

// wP is a paragraph of plain runs.
func wP(texts ...string) string {
	var b strings.Builder
	b.WriteString("<w:p>")
	for _, t := range texts {
		b.WriteString(`<w:r><w:t xml:space="preserve">` + t + `</w:t></w:r>`)
	}
	b.WriteString("</w:p>")
	return b.String()
}

// wRow is a table row of one-paragraph cells.
func wRow(cells ...string) string {
	var b strings.Builder
	b.WriteString("<w:tr>")
	for _, c := range cells {
		b.WriteString("<w:tc>" + wP(c) + "</w:tc>")
	}
	b.WriteString("</w:tr>")
	return b.String()
}

// contentTypes is a [Content_Types].xml that satisfies real readers.
const contentTypes = xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
	`<Default Extension="xml" ContentType="application/xml"/></Types>`

// docxParts returns the parts of a minimal Word package around a
// document body, plus extra parts; docRels are triples for
// word/_rels/document.xml.rels.
func docxParts(body string, docRels []string, extra ...part) []part {
	ps := []part{
		{"[Content_Types].xml", contentTypes},
		{"_rels/.rels", relsXML("rId1", "officeDocument", "word/document.xml")},
		{"word/document.xml", wDocument(body)},
	}
	if len(docRels) > 0 {
		ps = append(ps, part{"word/_rels/document.xml.rels", relsXML(docRels...)})
	}
	return append(ps, extra...)
}

// pSlide builds a slide part from shape-tree content; show may be "" (no
// attribute), "0" or "false".
func pSlide(show, spTree string) string {
	attr := ""
	if show != "" {
		attr = ` show="` + show + `"`
	}
	return xmlHeader + `<p:sld ` + nsDeclP + attr + `><p:cSld><p:spTree>` + spTree + `</p:spTree></p:cSld></p:sld>`
}

// pNotes builds a notes slide part.
func pNotes(spTree string) string {
	return xmlHeader + `<p:notes ` + nsDeclP + `><p:cSld><p:spTree>` + spTree + `</p:spTree></p:cSld></p:notes>`
}

// pSp is a shape with paragraphs; ph is the placeholder type ("" for a
// plain text box, "body" for a typeless placeholder written as <p:ph/>).
func pSp(ph string, paras ...string) string {
	var b strings.Builder
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>`)
	switch ph {
	case "":
	case "body":
		b.WriteString(`<p:ph idx="1"/>`)
	default:
		b.WriteString(`<p:ph type="` + ph + `"/>`)
	}
	b.WriteString(`</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>`)
	for _, p := range paras {
		b.WriteString(`<a:p><a:r><a:rPr lang="ja-JP"/><a:t>` + p + `</a:t></a:r></a:p>`)
	}
	b.WriteString(`</p:txBody></p:sp>`)
	return b.String()
}

// pptxParts returns a minimal PowerPoint package: slides[i] is the part
// name of the i-th p:sldId (an empty name makes a dangling id), plus
// extra parts.
func pptxParts(slides []string, extra ...part) []part {
	var ids strings.Builder
	var rels []string
	for i, s := range slides {
		id := "rId" + string(rune('a'+i))
		ids.WriteString(`<p:sldId id="` + string(rune('0'+i)) + `" r:id="` + id + `"/>`)
		if s != "" {
			rels = append(rels, id, "slide", strings.TrimPrefix(s, "ppt/"))
		}
	}
	pres := xmlHeader + `<p:presentation ` + nsDeclP + `><p:sldMasterIdLst/><p:sldIdLst>` + ids.String() +
		`</p:sldIdLst><p:sldSz cx="1" cy="1"/></p:presentation>`
	ps := []part{
		{"[Content_Types].xml", contentTypes},
		{"_rels/.rels", relsXML("rId1", "officeDocument", "ppt/presentation.xml")},
		{"ppt/presentation.xml", pres},
		{"ppt/_rels/presentation.xml.rels", relsXML(rels...)},
	}
	return append(ps, extra...)
}

// xlsxParts returns a minimal workbook: sheets are name, state, sheet XML
// triples; sst is the shared strings.
func xlsxParts(sst []string, sheets ...string) []part {
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	var wb strings.Builder
	var rels []string
	var ps []part
	wb.WriteString(xmlHeader + `<workbook ` + ns + `><sheets>`)
	for i := 0; i+2 < len(sheets); i += 3 {
		n := string(rune('1' + i/3))
		state := ""
		if sheets[i+1] != "" {
			state = ` state="` + sheets[i+1] + `"`
		}
		wb.WriteString(`<sheet name="` + sheets[i] + `" sheetId="` + n + `"` + state + ` r:id="rId` + n + `"/>`)
		rels = append(rels, "rId"+n, "worksheet", "worksheets/sheet"+n+".xml")
		ps = append(ps, part{"xl/worksheets/sheet" + n + ".xml", xmlHeader + `<worksheet ` + ns + `><sheetData>` + sheets[i+2] + `</sheetData></worksheet>`})
	}
	wb.WriteString(`</sheets></workbook>`)
	rels = append(rels, "rIdS", "sharedStrings", "sharedStrings.xml")
	var s strings.Builder
	s.WriteString(xmlHeader + `<sst ` + ns + `>`)
	for _, t := range sst {
		s.WriteString(`<si>` + t + `</si>`)
	}
	s.WriteString(`</sst>`)
	return append([]part{
		{"[Content_Types].xml", contentTypes},
		{"xl/workbook.xml", wb.String()},
		{"xl/_rels/workbook.xml.rels", relsXML(rels...)},
		{"xl/sharedStrings.xml", s.String()},
	}, ps...)
}
