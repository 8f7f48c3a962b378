package ooxml_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

func TestResolveTarget(t *testing.T) {
	tests := []struct {
		dir, target, want string
	}{
		{"word/", "media/image1.png", "word/media/image1.png"},
		{"xl/drawings/", "../charts/chart1.xml", "xl/charts/chart1.xml"},
		{"ppt/slides/", "../../ppt/notesSlides/notesSlide1.xml", "ppt/notesSlides/notesSlide1.xml"},
		{"ppt/slides/", "/ppt/charts/chart1.xml", "ppt/charts/chart1.xml"},
		{"word/", "embeddings/Microsoft%20Excel%20Worksheet.xlsx", "word/embeddings/Microsoft Excel Worksheet.xlsx"},
		{"word/", "embeddings/%E8%A1%A8.xlsx", "word/embeddings/表.xlsx"},
		{"word/", "embeddings/bad%zz.xlsx", "word/embeddings/bad%zz.xlsx"},
		{"word/", `media\image1.png`, "word/media/image1.png"},
		{"word/", "comments.xml#frag", "word/comments.xml"},
		{"", "word/document.xml", "word/document.xml"},
		{"word/", "../../etc/passwd", ""},
		{"", "..", ""},
		{"word/", "..", ""},
	}
	for _, tc := range tests {
		if got := ooxml.ResolveTarget(tc.dir, tc.target); got != tc.want {
			t.Errorf("ResolveTarget(%q, %q) = %q, want %q", tc.dir, tc.target, got, tc.want)
		}
	}
}

func testPackage(t *testing.T, lim extract.Limits, parts ...string) *ooxml.Pkg {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(parts); i += 2 {
		w, _ := zw.Create(parts[i])
		w.Write([]byte(parts[i+1]))
	}
	zw.Close()
	lim = extract.Options{Limits: lim}.ResolvedLimits()
	p, err := ooxml.NewPackage(bytes.NewReader(buf.Bytes()), int64(buf.Len()), lim, &ooxml.Budget{Max: lim.ZipTotalBytes})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPackageLookupAndRels(t *testing.T) {
	p := testPackage(t, extract.Limits{},
		"Word/Document.XML", "<x/>",
		`word\_rels\document.xml.rels`, `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="http://example.com/" TargetMode="External"/>`+
			`<Relationship Id="rId2" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/chart" Target="charts/chart1.xml"/>`+
			`<Relationship Id="rId2" Type="x" Target="dup.xml"/>`+
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/a.png"/>`+
			`</Relationships>`)
	if !p.Has("word/document.xml") || !p.Has("/WORD/document.xml") {
		t.Errorf("part lookup must ignore case and a leading slash")
	}
	got, err := p.RelsOf("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]ooxml.Rel{
		"rId2": {Type: "http://purl.oclc.org/ooxml/officeDocument/relationships/chart", Target: "word/charts/chart1.xml"},
		"rId3": {Type: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image", Target: "media/a.png"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RelsOf = %v, want %v", got, want)
	}
	if !ooxml.RelTypeIs(got["rId2"].Type, "chart") || ooxml.RelTypeIs(got["rId2"].Type, "art") {
		t.Errorf("relTypeIs must match the last path segment")
	}
	if m, err := p.RelsOf("word/none.xml"); err != nil || len(m) != 0 {
		t.Errorf("RelsOf(no .rels) = %v, %v; want empty", m, err)
	}
	if _, err := p.Read("word/missing.xml"); !errors.Is(err, ooxml.ErrNoPart) {
		t.Errorf("read(missing) = %v, want errNoPart", err)
	}
}

func TestPackageBudget(t *testing.T) {
	body := strings.Repeat("x", 1000)
	p := testPackage(t, extract.Limits{ZipTotalBytes: 2500}, "a", body, "b", body, "c", body)
	for i, name := range []string{"a", "b", "c"} {
		_, err := p.Read(name)
		var se *ooxml.SizeError
		if i < 2 && err != nil {
			t.Fatalf("read(%s) = %v", name, err)
		}
		if i == 2 && (!errors.As(err, &se) || se.Kind != "total") {
			t.Fatalf("read(%s) = %v, want the total cap", name, err)
		}
	}
	e := ooxml.Failure("f.docx", fmt.Errorf("wrapped: %w", &ooxml.SizeError{Kind: "part", Part: "word/document.xml", Size: 5, Cap: 4}))
	var fe *extract.Error
	if !errors.As(e, &fe) || fe.Msg != extract.MsgTooLarge || len(fe.Log) != 1 || !strings.Contains(fe.Log[0], "word/document.xml") {
		t.Errorf("ooxmlFailure(size) = %#v", e)
	}
}

const drawingNS = `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
	`xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
	`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
	`xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` +
	`xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
	`xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

// TestReadElementLines reads an Excel drawing the way the Excel reader
// does: one ooxml.ReadElementLines call per anchor.
func TestReadElementLines(t *testing.T) {
	drawing := `<xdr:wsDr ` + drawingNS + `>` +
		`<xdr:twoCellAnchor><xdr:from><xdr:col>5</xdr:col><xdr:row>1</xdr:row></xdr:from>` +
		`<xdr:sp><xdr:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="ja-JP"/><a:t>納期は</a:t></a:r></a:p><a:p><a:r><a:t>別途相談</a:t></a:r></a:p></xdr:txBody></xdr:sp>` +
		`</xdr:twoCellAnchor>` +
		`<xdr:oneCellAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:oneCellAnchor>` +
		`<mc:AlternateContent><mc:Choice Requires="a14"><xdr:absoluteAnchor><xdr:grpSp>` +
		`<xdr:sp><xdr:txBody><a:p><a:r><a:t>グループ</a:t></a:r></a:p></xdr:txBody></xdr:sp>` +
		`<xdr:graphicFrame><a:graphic><a:graphicData><dgm:relIds r:dm="rId2"/></a:graphicData></a:graphic></xdr:graphicFrame>` +
		`</xdr:grpSp></xdr:absoluteAnchor></mc:Choice><mc:Fallback><xdr:absoluteAnchor/></mc:Fallback></mc:AlternateContent>` +
		`</xdr:wsDr>`
	d := ooxml.NewDecoder(strings.NewReader(drawing), 100)
	var got []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local == "Fallback" {
			d.Skip()
			continue
		}
		if !strings.HasSuffix(se.Name.Local, "Anchor") {
			continue
		}
		x, err := ooxml.ReadElementLines(d, se, ooxml.LineOptions{Depth: 100, Objects: true})
		if err != nil {
			t.Fatal(err)
		}
		s := se.Name.Local + ":"
		for _, l := range x.Lines {
			s += " line=" + l.Text
		}
		for _, o := range x.Objects {
			s += fmt.Sprintf(" obj=%d/%s", o.Kind, o.ID)
		}
		got = append(got, s)
	}
	want := []string{
		"twoCellAnchor: line=納期は line=別途相談",
		"oneCellAnchor: obj=3/rId1",
		"absoluteAnchor: line=グループ obj=2/rId2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

func TestReadXmlLinesOptions(t *testing.T) {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:o="urn:schemas-microsoft-com:office:office"`
	doc := `<w:document ` + w + `><w:body>` +
		`<w:p><w:r><w:t>前</w:t></w:r><w:r><w:txbxContent><w:p><w:r><w:t>箱</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>表</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>中</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:txbxContent></w:r>` +
		`<w:r><w:t>後</w:t></w:r><w:r><w:commentReference w:id="4"/></w:r></w:p>` +
		`<w:p><w:r><w:br w:type="page"/><w:object><o:OLEObject Type="Embed" r:id="rId7"/><o:OLEObject Type="Link" r:id="rId8"/></w:object><w:t>次</w:t></w:r></w:p>` +
		`</w:body></w:document>`
	tests := []struct {
		name string
		opt  ooxml.LineOptions
		want string
	}{
		{"plain", ooxml.LineOptions{}, "1:箱 1:表\t中 1:前後 1:次"},
		{"pages", ooxml.LineOptions{Pages: true}, "1:箱 1:表\t中 1:前後 2:次"},
		{"boxes", ooxml.LineOptions{Pages: true, Boxes: true, Objects: true}, "1:前後 2:次 | 1:box=箱 表 中 1:4:4 2:5:rId7"},
	}
	for _, tc := range tests {
		x, err := ooxml.ReadLines(strings.NewReader(doc), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, l := range x.Lines {
			parts = append(parts, fmt.Sprintf("%d:%s", l.Page, l.Text))
		}
		if len(x.Objects) > 0 {
			parts = append(parts, "|")
		}
		for _, o := range x.Objects {
			if o.Kind == ooxml.ObjTextBox {
				parts = append(parts, fmt.Sprintf("%d:box=%s", o.Page, o.Text))
			} else {
				parts = append(parts, fmt.Sprintf("%d:%d:%s", o.Page, o.Kind, o.ID))
			}
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("%s: ReadLines = %q, want %q", tc.name, got, tc.want)
		}
		if x.Root.Name.Local != "document" {
			t.Errorf("%s: Root = %v", tc.name, x.Root.Name)
		}
	}
}

func TestXMLDecoderRefuses(t *testing.T) {
	tests := []struct {
		name, in string
		depth    int
	}{
		{"dtd", `<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`, 10},
		{"dtd_lower", `<!doctype x><x/>`, 10},
		{"depth", strings.Repeat("<a>", 11) + strings.Repeat("</a>", 11), 10},
		{"unknown_entity", `<x>&nbsp;</x>`, 10},
		{"truncated", `<x><y>`, 10},
		{"empty", ``, 10},
	}
	for _, tc := range tests {
		if _, err := ooxml.ReadLines(strings.NewReader(tc.in), ooxml.LineOptions{Depth: tc.depth}); err == nil {
			t.Errorf("%s: ReadLines(%q) succeeded, want an error", tc.name, tc.in)
		}
	}
	if _, err := ooxml.ReadLines(strings.NewReader(strings.Repeat("<a>", 10)+strings.Repeat("</a>", 10)), ooxml.LineOptions{Depth: 10}); err != nil {
		t.Errorf("depth at the limit: %v", err)
	}
}

func TestXMLDeclaredEncoding(t *testing.T) {
	in := "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><p xmlns=\"http://schemas.openxmlformats.org/drawingml/2006/main\"><t>\x93\xfa\x96\x7b</t></p>"
	x, err := ooxml.ReadLines(strings.NewReader(in), ooxml.LineOptions{})
	if err != nil || len(x.Lines) != 1 || x.Lines[0].Text != "日本" {
		t.Errorf("ReadLines(Shift_JIS) = %+v, %v; want 日本", x, err)
	}
}

// TestXMLBareDoctype: with BareDoctype (the ODF reader's decoder), a
// DOCTYPE without an internal subset passes (OpenOffice.org 2.x
// manifests); one with entity declarations, or any internal subset, is
// ErrDTD still; without BareDoctype every DOCTYPE is (issue 33).
func TestXMLBareDoctype(t *testing.T) {
	tests := []struct {
		in   string
		bare bool
		ok   bool
	}{
		{`<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD Manifest 1.0//EN" "Manifest.dtd"><m/>`, true, true},
		{`<!DOCTYPE x SYSTEM "x.dtd"><x/>`, true, true},
		{`<!doctype x><x/>`, true, true},
		{`<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`, true, false},
		{`<!DOCTYPE x SYSTEM "x.dtd" [<!ENTITY a SYSTEM "file:///etc/passwd">]><x/>`, true, false},
		{`<!DOCTYPE x []><x/>`, true, false},
		{`<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD Manifest 1.0//EN" "Manifest.dtd"><m/>`, false, false},
	}
	for _, tc := range tests {
		d := ooxml.NewDecoder(strings.NewReader(tc.in), 10)
		d.BareDoctype = tc.bare
		var err error
		for err == nil {
			_, err = d.Token()
		}
		if ok := err == io.EOF; ok != tc.ok {
			t.Errorf("Token(%q, bare %v) ended with %v, want ok %v", tc.in, tc.bare, err, tc.ok)
		}
		if !tc.ok && !errors.Is(err, xmlscan.ErrDTD) {
			t.Errorf("Token(%q) = %v, want ErrDTD", tc.in, err)
		}
	}
}
