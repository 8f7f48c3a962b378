package all_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

func TestEmbeds(t *testing.T) {
	workbook := fixture.EmbedWorkbook(t, 8000)
	document := string(fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("文書の本文")+
		`<w:p>`+fixture.WR(`<w:pict><v:shape><v:textbox><w:txbxContent>`+fixture.WP("箱は読まない")+`</w:txbxContent></v:textbox></v:shape></w:pict>`)+`</w:p>`+
		`<w:p>`+fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rId9"/></w:object>`)+`</w:p>`, []string{"rId9", "package", "embeddings/inner.xlsx"},
		fixture.Part{Name: "word/embeddings/inner.xlsx", Body: fixture.EmbedWorkbook(t, 0)})...))
	presentation := string(fixture.ZipBytes(t, fixture.PptxParts([]string{"ppt/slides/slide1.xml"},
		fixture.Part{Name: "ppt/slides/slide1.xml", Body: fixture.PSlide("", fixture.PSp("title", "埋め込みスライド")+fixture.PSp("ftr", "フッターは読まない"))})...))
	notOffice := string(fixture.ZipBytes(t, fixture.Part{Name: "readme.txt", Body: "hello"}))
	brokenDoc := string(fixture.ZipBytes(t, fixture.Part{Name: "word/document.xml", Body: "<w:document"}))

	body := `<w:p>` + fixture.WT("表を埋め込み") + fixture.WR(`<w:object><v:shape/><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" r:id="rIdX"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Link" r:id="rIdL"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdX"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdZ"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdB"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdO"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdT"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.BrPage + fixture.WT("二ページ目") + fixture.WR(`<w:object><w:objectEmbed r:id="rIdD"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><w:objectEmbed r:id="rIdP"/></w:object>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:object><w:objectEmbed r:id="rIdNoRel"/></w:object>`) + `</w:p>`
	parts := fixture.DocxParts(body, []string{
		"rIdX", "package", "embeddings/Microsoft_Excel_Worksheet.xlsx",
		"rIdL", "oleObject", "!file:///C:/linked.xlsx",
		"rIdZ", "package", "embeddings/archive.zip",
		"rIdB", "package", "embeddings/broken.docx",
		"rIdO", "oleObject", "embeddings/oleObject1.bin",
		"rIdT", "package", "embeddings/notzip.docx",
		"rIdD", "package", "embeddings/Microsoft_Word_Document.docx",
		"rIdP", "package", "embeddings/Microsoft_PowerPoint_Presentation.pptx",
	},
		fixture.Part{Name: "word/embeddings/Microsoft_Excel_Worksheet.xlsx", Body: workbook},
		fixture.Part{Name: "word/embeddings/archive.zip", Body: notOffice},
		fixture.Part{Name: "word/embeddings/broken.docx", Body: brokenDoc},
		fixture.Part{Name: "word/embeddings/oleObject1.bin", Body: "\xd0\xcf\x11\xe0"},
		fixture.Part{Name: "word/embeddings/notzip.docx", Body: "not a zip"},
		fixture.Part{Name: "word/embeddings/Microsoft_Word_Document.docx", Body: document},
		fixture.Part{Name: "word/embeddings/Microsoft_PowerPoint_Presentation.pptx", Body: presentation},
		// an embed in a header is not read
		fixture.Part{Name: "word/header1.xml", Body: fixture.WPart("hdr", `<w:p>`+fixture.WT("ヘッダー")+fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rId1"/></w:object>`)+`</w:p>`)},
	)
	data := fixture.ZipBytes(t, parts...)

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
			res, err := fixture.ExtractBytes(t, "親.docx", data, tc.opt)
			fixture.CheckGolden(t, tc.name, fixture.RenderResult(res, err))
		})
	}

	// A total cap reached while reading an embed fails the whole file.
	_, err := fixture.ExtractBytes(t, "親.docx", data, extract.Options{Limits: extract.Limits{ZipTotalBytes: int64(len(fixture.WDocument(body))) + 2000}})
	if got := fixture.RenderResult(nil, err); !strings.HasPrefix(got, "!! "+extract.MsgTooLarge) {
		t.Errorf("total cap inside an embed: got %s", got)
	}
}
