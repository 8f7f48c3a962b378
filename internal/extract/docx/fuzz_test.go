package docx_test

import (
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"testing"
)

// FuzzDocx fuzzes the reader from small packages covering its paths.
func FuzzDocx(f *testing.F) {
	fixture.FuzzOOXML(f, ".docx", map[string][]byte{
		"body":     fixture.ZipBytes(f, fixture.DocxParts(docxBody, nil)...),
		"rendered": fixture.ZipBytes(f, fixture.DocxParts(docxRendered, nil)...),
		"objects": fixture.ZipBytes(f, fixture.DocxParts(docxObjects, []string{"rIdC", "chart", "charts/chart1.xml", "rIdD", "diagramData", "../word/diagrams/data1.xml"},
			fixture.Part{Name: "word/charts/chart1.xml", Body: fixture.ChartXML}, fixture.Part{Name: "word/diagrams/data1.xml", Body: fixture.DiagramXML})...),
		"comments": fixture.ZipBytes(f, fixture.DocxParts(docxCommentsBody, nil, fixture.Part{Name: "word/comments.xml", Body: commentsXML},
			fixture.Part{Name: "word/header1.xml", Body: fixture.WPart("hdr", fixture.WP("ヘッダー"))}, fixture.Part{Name: "word/footnotes.xml", Body: fixture.WPart("footnotes", `<w:footnote w:id="1">`+fixture.WP("注")+`</w:footnote>`)})...),
		"embed": fixture.ZipBytes(f, fixture.DocxParts(`<w:p>`+fixture.WR(`<w:object><o:OLEObject Type="Embed" r:id="rIdX"/></w:object>`)+`</w:p>`,
			[]string{"rIdX", "package", "embeddings/a.xlsx"}, fixture.Part{Name: "word/embeddings/a.xlsx", Body: fixture.EmbedWorkbook(f, 0)})...),
	})
}
