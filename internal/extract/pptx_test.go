package extract_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

const p188 = `xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`

// Fixture slides.
var (
	pptxSlideA = pSlide("",
		pSp("title", "表題")+
			pSp("body", "本文1", "本文2")+
			pSp("sldNum", "1")+pSp("dt", "2024/1/1")+pSp("hdr", "ヘッダー")+pSp("ftr", "社外秘")+
			// group shape
			`<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>`+pSp("", "グループA")+`<p:grpSp>`+pSp("", "グループB")+`</p:grpSp></p:grpSp>`+
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
			`<mc:Fallback><p:graphicFrame><a:graphic><a:graphicData><p:oleObj r:id="rIdE"><p:embed/><p:pic>`+pSp("", "代替")+`</p:pic></p:oleObj></a:graphicData></a:graphic></p:graphicFrame></mc:Fallback></mc:AlternateContent>`)

	pptxSlideB = pSlide("", pSp("", "二枚目")+pSp("ftr", "社外秘"))
	pptxSlideC = pSlide("0", pSp("", "隠し")+pSp("ftr", "別フッター")+
		`<p:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC"/></a:graphicData></a:graphic></p:graphicFrame>`)
	pptxSlideD = pSlide("false", pSp("", "これも隠し"))

	pptxNotes = pNotes(pSp("sldImg") + pSp("body", "話す内容", "その二") + pSp("sldNum", "1"))

	pptxLegacyComments = xmlHeader + `<p:cmLst ` + nsDeclP + `><p:cm authorId="0" idx="1"><p:pos x="1" y="1"/><p:text>確認して
ください</p:text></p:cm><p:cm authorId="1" idx="2"><p:text>了解</p:text></p:cm></p:cmLst>`
	pptxModernComments = xmlHeader + `<p188:cmLst ` + p188 + `><p188:cm id="{1}" authorId="{A}">` +
		`<p188:replyLst><p188:reply id="{2}" authorId="{B}"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>返信です</a:t></a:r></a:p></p188:txBody></p188:reply>` +
		`<p188:reply id="{3}" authorId="{A}"><p188:txBody><a:p><a:r><a:t>再返信</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst>` +
		`<p188:txBody><a:bodyPr/><a:p><a:r><a:t>元の</a:t></a:r></a:p><a:p><a:r><a:t>コメント</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>`
)

func TestPptx(t *testing.T) {
	embedded := string(zipBytes(t, docxParts(wP("埋め込まれた文書")+wP("二段落目"), nil)...))
	tests := []struct {
		name  string
		parts []part
	}{
		{"slides", pptxParts([]string{"ppt/slides/slide3.xml", "ppt/slides/slide1.xml", "", "ppt/slides/slide2.xml", "ppt/slides/slide9.xml", "ppt/slides/slide4.xml"},
			part{"ppt/slides/slide3.xml", pptxSlideA},
			part{"ppt/slides/_rels/slide3.xml.rels", relsXML(
				"rIdN", "notesSlide", "../notesSlides/notesSlide1.xml",
				"rIdK", "comments", "../comments/comment1.xml",
				"rIdD", "diagramData", "../diagrams/data1.xml",
				"rIdC", "chart", "../charts/chart1.xml",
				"rIdE", "package", "../embeddings/Microsoft_Word_Document.docx",
				"rIdX", "hyperlink", "!https://example.com/")},
			part{"ppt/notesSlides/notesSlide1.xml", pptxNotes},
			part{"ppt/comments/comment1.xml", pptxLegacyComments},
			part{"ppt/diagrams/data1.xml", diagramXML},
			part{"ppt/charts/chart1.xml", chartXML},
			part{"ppt/embeddings/Microsoft_Word_Document.docx", embedded},
			part{"ppt/slides/slide1.xml", pptxSlideB},
			part{"ppt/slides/_rels/slide1.xml.rels", relsXML(
				"rIdM", "http://schemas.microsoft.com/office/2018/10/relationships/comments", "../comments/modernComment_100_1.xml")},
			part{"ppt/comments/modernComment_100_1.xml", pptxModernComments},
			part{"ppt/slides/slide2.xml", pptxSlideC},
			part{"ppt/slides/_rels/slide2.xml.rels", relsXML(
				"rIdN", "notesSlide", "../notesSlides/notesSlide2.xml", "rIdC", "chart", "/ppt/charts/chart1.xml")},
			part{"ppt/notesSlides/notesSlide2.xml", pNotes(pSp("body", "隠しスライドのノート"))},
			part{"ppt/slides/slide4.xml", pptxSlideD},
			part{"ppt/slideLayouts/slideLayout1.xml", pSlide("", pSp("", "レイアウトは読まない"))},
		)},
		{"no_slides", pptxParts(nil)},
		{"missing_presentation", []part{{"[Content_Types].xml", contentTypes}, {"ppt/slides/slide1.xml", pptxSlideB}}},
		{"broken_slide", pptxParts([]string{"ppt/slides/slide1.xml"}, part{"ppt/slides/slide1.xml", `<p:sld ` + nsDeclP + `><p:cSld>`})},
		{"broken_chart", pptxParts([]string{"ppt/slides/slide1.xml"},
			part{"ppt/slides/slide1.xml", pptxSlideC},
			part{"ppt/slides/_rels/slide1.xml.rels", relsXML("rIdC", "chart", "../charts/chart1.xml")},
			part{"ppt/charts/chart1.xml", `<c:chartSpace ` + nsDeclP + `><c:chart><c:title><a:p>`})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := zipBytes(t, tc.parts...)
			res, err := ooxmlExtractBytes(t, "発表.pptx", data, extract.Options{})
			got := renderResult(res, err)
			checkGolden(t, tc.name, got)
			if m := renderResult(ooxmlExtractBytes(t, "発表.PPTM", data, extract.Options{})); m != got {
				t.Errorf(".pptm differs from .pptx:\n%s\nwant\n%s", m, got)
			}
		})
	}
}
