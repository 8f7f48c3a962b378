package pptx_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

const p188 = `xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`

// Fixture slides.
var (
	pptxSlideA = fixture.PSlide("",
		fixture.PSp("title", "表題")+
			fixture.PSp("body", "本文1", "本文2")+
			fixture.PSp("sldNum", "1")+fixture.PSp("dt", "2024/1/1")+fixture.PSp("hdr", "ヘッダー")+fixture.PSp("ftr", "社外秘")+
			// group shape
			`<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>`+fixture.PSp("", "グループA")+`<p:grpSp>`+fixture.PSp("", "グループB")+`</p:grpSp></p:grpSp>`+
			// table
			`<p:graphicFrame><p:nvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData><a:tbl>`+
			`<a:tr><a:tc><a:txBody><a:p><a:r><a:t>項目</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>値</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p/></a:txBody></a:tc></a:tr>`+
			`<a:tr><a:tc><a:txBody><a:p/></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>右</a:t></a:r></a:p><a:p><a:r><a:t>下</a:t></a:r></a:p></a:txBody></a:tc></a:tr>`+
			`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`+
			// text box with a line break and a field
			`<p:sp><p:nvSpPr><p:cNvPr id="9" name="t"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>改行</a:t></a:r><a:br/><a:r><a:t>後`+"\t"+`タブ</a:t></a:r><a:fld type="slidenum"><a:t>1</a:t></a:fld></a:p></p:txBody></p:sp>`+
			// SmartArt, chart and an embedded document (with a fallback copy)
			`<p:graphicFrame><a:graphic><a:graphicData><dgm:relIds r:dm="rIdD"/></a:graphicData></a:graphic></p:graphicFrame>`+
			`<p:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC"/></a:graphicData></a:graphic></p:graphicFrame>`+
			`<mc:AlternateContent><mc:Choice Requires="v"><p:graphicFrame><a:graphic><a:graphicData><p:oleObj r:id="rIdE" progId="Word.Document.12"><p:embed/></p:oleObj></a:graphicData></a:graphic></p:graphicFrame></mc:Choice>`+
			`<mc:Fallback><p:graphicFrame><a:graphic><a:graphicData><p:oleObj r:id="rIdE"><p:embed/><p:pic>`+fixture.PSp("", "代替")+`</p:pic></p:oleObj></a:graphicData></a:graphic></p:graphicFrame></mc:Fallback></mc:AlternateContent>`)

	pptxSlideB = fixture.PSlide("", fixture.PSp("", "二枚目")+fixture.PSp("ftr", "社外秘"))
	pptxSlideC = fixture.PSlide("0", fixture.PSp("", "隠し")+fixture.PSp("ftr", "別フッター")+
		`<p:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC"/></a:graphicData></a:graphic></p:graphicFrame>`)
	pptxSlideD = fixture.PSlide("false", fixture.PSp("", "これも隠し"))

	pptxNotes = fixture.PNotes(fixture.PSp("sldImg") + fixture.PSp("body", "話す内容", "その二") + fixture.PSp("sldNum", "1"))

	pptxLegacyComments = fixture.XMLHeader + `<p:cmLst ` + fixture.NSDeclP + `><p:cm authorId="0" idx="1"><p:pos x="1" y="1"/><p:text>確認して
ください</p:text></p:cm><p:cm authorId="1" idx="2"><p:text>了解</p:text></p:cm></p:cmLst>`
	pptxModernComments = fixture.XMLHeader + `<p188:cmLst ` + p188 + `><p188:cm id="{1}" authorId="{A}">` +
		`<p188:replyLst><p188:reply id="{2}" authorId="{B}"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>返信です</a:t></a:r></a:p></p188:txBody></p188:reply>` +
		`<p188:reply id="{3}" authorId="{A}"><p188:txBody><a:p><a:r><a:t>再返信</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst>` +
		`<p188:txBody><a:bodyPr/><a:p><a:r><a:t>元の</a:t></a:r></a:p><a:p><a:r><a:t>コメント</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>`
)

func TestPptx(t *testing.T) {
	embedded := string(fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("埋め込まれた文書")+fixture.WP("二段落目"), nil)...))
	tests := []struct {
		name  string
		parts []fixture.Part
	}{
		{"slides", fixture.PptxParts([]string{"ppt/slides/slide3.xml", "ppt/slides/slide1.xml", "", "ppt/slides/slide2.xml", "ppt/slides/slide9.xml", "ppt/slides/slide4.xml"},
			fixture.Part{Name: "ppt/slides/slide3.xml", Body: pptxSlideA},
			fixture.Part{Name: "ppt/slides/_rels/slide3.xml.rels", Body: fixture.RelsXML(
				"rIdN", "notesSlide", "../notesSlides/notesSlide1.xml",
				"rIdK", "comments", "../comments/comment1.xml",
				"rIdD", "diagramData", "../diagrams/data1.xml",
				"rIdC", "chart", "../charts/chart1.xml",
				"rIdE", "package", "../embeddings/Microsoft_Word_Document.docx",
				"rIdX", "hyperlink", "!https://example.com/")},
			fixture.Part{Name: "ppt/notesSlides/notesSlide1.xml", Body: pptxNotes},
			fixture.Part{Name: "ppt/comments/comment1.xml", Body: pptxLegacyComments},
			fixture.Part{Name: "ppt/diagrams/data1.xml", Body: fixture.DiagramXML},
			fixture.Part{Name: "ppt/charts/chart1.xml", Body: fixture.ChartXML},
			fixture.Part{Name: "ppt/embeddings/Microsoft_Word_Document.docx", Body: embedded},
			fixture.Part{Name: "ppt/slides/slide1.xml", Body: pptxSlideB},
			fixture.Part{Name: "ppt/slides/_rels/slide1.xml.rels", Body: fixture.RelsXML(
				"rIdM", "http://schemas.microsoft.com/office/2018/10/relationships/comments", "../comments/modernComment_100_1.xml")},
			fixture.Part{Name: "ppt/comments/modernComment_100_1.xml", Body: pptxModernComments},
			fixture.Part{Name: "ppt/slides/slide2.xml", Body: pptxSlideC},
			fixture.Part{Name: "ppt/slides/_rels/slide2.xml.rels", Body: fixture.RelsXML(
				"rIdN", "notesSlide", "../notesSlides/notesSlide2.xml", "rIdC", "chart", "/ppt/charts/chart1.xml")},
			fixture.Part{Name: "ppt/notesSlides/notesSlide2.xml", Body: fixture.PNotes(fixture.PSp("body", "隠しスライドのノート"))},
			fixture.Part{Name: "ppt/slides/slide4.xml", Body: pptxSlideD},
			fixture.Part{Name: "ppt/slideLayouts/slideLayout1.xml", Body: fixture.PSlide("", fixture.PSp("", "レイアウトは読まない"))},
		)},
		{"no_slides", fixture.PptxParts(nil)},
		{"missing_presentation", []fixture.Part{{Name: "[Content_Types].xml", Body: fixture.ContentTypes}, {Name: "ppt/slides/slide1.xml", Body: pptxSlideB}}},
		{"broken_slide", fixture.PptxParts([]string{"ppt/slides/slide1.xml"}, fixture.Part{Name: "ppt/slides/slide1.xml", Body: `<p:sld ` + fixture.NSDeclP + `><p:cSld>`})},
		{"broken_chart", fixture.PptxParts([]string{"ppt/slides/slide1.xml"},
			fixture.Part{Name: "ppt/slides/slide1.xml", Body: pptxSlideC},
			fixture.Part{Name: "ppt/slides/_rels/slide1.xml.rels", Body: fixture.RelsXML("rIdC", "chart", "../charts/chart1.xml")},
			fixture.Part{Name: "ppt/charts/chart1.xml", Body: `<c:chartSpace ` + fixture.NSDeclP + `><c:chart><c:title><a:p>`})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := fixture.ZipBytes(t, tc.parts...)
			res, err := fixture.ExtractBytes(t, "発表.pptx", data, extract.Options{})
			got := fixture.RenderResult(res, err)
			fixture.CheckGolden(t, tc.name, got)
			if m := fixture.RenderResult(fixture.ExtractBytes(t, "発表.PPTM", data, extract.Options{})); m != got {
				t.Errorf(".pptm differs from .pptx:\n%s\nwant\n%s", m, got)
			}
		})
	}
}
