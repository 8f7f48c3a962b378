package extract_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// embed.workbook: shared, inline and formula strings are read; numbers,
// booleans and the hidden sheet are not; phonetic guides are not text.
// pad (incompressible bytes in an unused part) makes the package larger.
func embedWorkbook(tb testing.TB, pad int) string {
	noise := make([]byte, pad)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	return string(zipBytes(tb, append(xlsxParts(
		[]string{`<t>品名</t>`, `<r><t>東京</t></r><r><t>本社</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh>`, `<t>隠し文字</t>`, `<t>改_x000D_
行</t>`},
		"表", "", `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>10</v></c><c r="C1" t="inlineStr"><is><t>在庫</t></is></c></row>`+
			`<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="str"><f>"合"&amp;"計"</f><v>合計</v></c></row>`+
			`<row r="3"><c r="A3"><v>3.5</v></c><c r="B3" t="s"><v>99</v></c></row>`+
			`<row r="4"><c r="D4" t="s"><v>3</v></c></row>`,
		"隠し", "hidden", `<row r="1"><c r="A1" t="s"><v>2</v></c></row>`,
		"二枚目", "", `<row r="1"><c r="A1" t="inlineStr"><is><t>別シート</t></is></c></row>`,
	), part{"xl/media/pad.bin", string(noise)})...))
}

func TestEmbeds(t *testing.T) {
	workbook := embedWorkbook(t, 8000)
	document := string(zipBytes(t, docxParts(wP("文書の本文")+
		`<w:p>`+wR(`<w:pict><v:shape><v:textbox><w:txbxContent>`+wP("箱は読まない")+`</w:txbxContent></v:textbox></v:shape></w:pict>`)+`</w:p>`+
		`<w:p>`+wR(`<w:object><o:OLEObject Type="Embed" r:id="rId9"/></w:object>`)+`</w:p>`, []string{"rId9", "package", "embeddings/inner.xlsx"},
		part{"word/embeddings/inner.xlsx", embedWorkbook(t, 0)})...))
	presentation := string(zipBytes(t, pptxParts([]string{"ppt/slides/slide1.xml"},
		part{"ppt/slides/slide1.xml", pSlide("", pSp("title", "埋め込みスライド")+pSp("ftr", "フッターは読まない"))})...))
	notOffice := string(zipBytes(t, part{"readme.txt", "hello"}))
	brokenDoc := string(zipBytes(t, part{"word/document.xml", "<w:document"}))

	body := `<w:p>` + wT("表を埋め込み") + wR(`<w:object><v:shape/><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" r:id="rIdX"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Link" r:id="rIdL"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdX"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdZ"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdB"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdO"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdT"/></w:object>`) + `</w:p>` +
		`<w:p>` + brPage + wT("二ページ目") + wR(`<w:object><w:objectEmbed r:id="rIdD"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><w:objectEmbed r:id="rIdP"/></w:object>`) + `</w:p>` +
		`<w:p>` + wR(`<w:object><w:objectEmbed r:id="rIdNoRel"/></w:object>`) + `</w:p>`
	parts := docxParts(body, []string{
		"rIdX", "package", "embeddings/Microsoft_Excel_Worksheet.xlsx",
		"rIdL", "oleObject", "!file:///C:/linked.xlsx",
		"rIdZ", "package", "embeddings/archive.zip",
		"rIdB", "package", "embeddings/broken.docx",
		"rIdO", "oleObject", "embeddings/oleObject1.bin",
		"rIdT", "package", "embeddings/notzip.docx",
		"rIdD", "package", "embeddings/Microsoft_Word_Document.docx",
		"rIdP", "package", "embeddings/Microsoft_PowerPoint_Presentation.pptx",
	},
		part{"word/embeddings/Microsoft_Excel_Worksheet.xlsx", workbook},
		part{"word/embeddings/archive.zip", notOffice},
		part{"word/embeddings/broken.docx", brokenDoc},
		part{"word/embeddings/oleObject1.bin", "\xd0\xcf\x11\xe0"},
		part{"word/embeddings/notzip.docx", "not a zip"},
		part{"word/embeddings/Microsoft_Word_Document.docx", document},
		part{"word/embeddings/Microsoft_PowerPoint_Presentation.pptx", presentation},
		// an embed in a header is not read
		part{"word/header1.xml", wPart("hdr", `<w:p>`+wT("ヘッダー")+wR(`<w:object><o:OLEObject Type="Embed" r:id="rId1"/></w:object>`)+`</w:p>`)},
	)
	data := zipBytes(t, parts...)

	tests := []struct {
		name string
		opt  extract.Options
	}{
		{"docx", extract.Options{}},
		// the workbook (over 8,000 bytes) breaks a 6,000-byte part cap:
		// only that embed fails, the others keep their numbers
		{"docx_part_cap", extract.Options{Limits: extract.Limits{ZipPartBytes: 6000}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "docx_part_cap" && len(workbook) <= 6000 {
				t.Fatalf("workbook fixture is %d bytes, must exceed the cap", len(workbook))
			}
			res, err := ooxmlExtractBytes(t, "親.docx", data, tc.opt)
			checkGolden(t, tc.name, renderResult(res, err))
		})
	}

	// A total cap reached while reading an embed fails the whole file.
	_, err := ooxmlExtractBytes(t, "親.docx", data, extract.Options{Limits: extract.Limits{ZipTotalBytes: int64(len(wDocument(body))) + 2000}})
	if got := renderResult(nil, err); !strings.HasPrefix(got, "!! "+extract.MsgTooLarge) {
		t.Errorf("total cap inside an embed: got %s", got)
	}
}
