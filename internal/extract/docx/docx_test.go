package docx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

const lrpb = `<w:r><w:lastRenderedPageBreak/></w:r>`

// Fixture bodies, one per place kind or page rule.
var (
	docxBody = fixture.WP("前文") +
		// tab, br, cr, noBreakHyphen, TAB in text; tab stops and run
		// properties are not text.
		`<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>` +
		fixture.WR(`<w:rPr><w:b/></w:rPr><w:t>A</w:t><w:tab/><w:t>B</w:t><w:br/><w:t>C</w:t><w:cr/><w:t>D</w:t><w:noBreakHyphen/><w:t>E`+"\t"+`F</w:t>`) + `</w:p>` +
		// tracked changes and field codes
		`<w:p>` + fixture.WT("残す") + `<w:del><w:r><w:delText>消した</w:delText></w:r></w:del>` +
		`<w:ins>` + fixture.WT("挿入") + `</w:ins><w:moveFrom>` + fixture.WT("移動元") + `</w:moveFrom><w:moveTo>` + fixture.WT("移動先") + `</w:moveTo>` +
		fixture.WR(`<w:fldChar w:fldCharType="begin"/>`) + fixture.WR(`<w:instrText> PAGE </w:instrText>`) + fixture.WR(`<w:fldChar w:fldCharType="separate"/>`) +
		fixture.WT("7") + fixture.WR(`<w:fldChar w:fldCharType="end"/>`) + `</w:p>` +
		// empty and blank paragraphs vanish
		`<w:p/>` + fixture.WP("　 ") +
		// content control
		`<w:sdt><w:sdtContent>` + fixture.WP("コントロール") + `</w:sdtContent></w:sdt>` +
		// tables: leading empty cell kept, trailing empty cells dropped,
		// paragraphs of a cell joined by spaces, nested table flattened
		`<w:tbl>` + fixture.WRow("品名", "数量", "", "") + fixture.WRow("", "空き") +
		`<w:tr><w:tc>` + fixture.WP("一段") + fixture.WP("二段") + `</w:tc><w:tc><w:tbl>` + fixture.WRow("内1", "内2") + fixture.WRow("内3") + `</w:tbl>` + fixture.WP("後") + `</w:tc></w:tr>` +
		`</w:tbl>` +
		// alternate content: only the first choice is read
		`<mc:AlternateContent><mc:Choice Requires="w14">` + fixture.WP("選択1") + `</mc:Choice><mc:Choice Requires="w15">` + fixture.WP("選択2") +
		`</mc:Choice><mc:Fallback>` + fixture.WP("代替") + `</mc:Fallback></mc:AlternateContent>`

	docxRendered = fixture.WP("一ページ目") +
		`<w:p>` + lrpb + fixture.WT("二ページ目") + `</w:p>` +
		`<w:p>` + fixture.WT("途中") + lrpb + fixture.WT("続き") + `</w:p>` +
		// an explicit break followed by Word's rendered break counts once
		`<w:p>` + fixture.BrPage + lrpb + fixture.WT("四ページ目") + `</w:p>` +
		// a section break takes effect after its paragraph
		`<w:p><w:pPr><w:sectPr><w:type w:val="nextPage"/></w:sectPr></w:pPr>` + fixture.WT("節の終わり") + `</w:p>` +
		`<w:tbl><w:tr><w:tc><w:p>` + lrpb + fixture.WT("表") + `</w:p></w:tc><w:tc>` + fixture.WP("五") + `</w:tc></w:tr>` +
		`<w:tr><w:tc>` + fixture.WP("同じページ") + `</w:tc></w:tr></w:tbl>` +
		`<w:p>` + lrpb + fixture.WT("六ページ目") + `</w:p>` +
		`<w:p>` + lrpb + `</w:p>` + `<w:p>` + lrpb + fixture.WT("八ページ目") + `</w:p>`

	docxExplicit = `<w:p><w:pPr><w:pageBreakBefore/></w:pPr>` + fixture.WT("最初") + `</w:p>` +
		`<w:p>` + fixture.WT("前") + fixture.BrPage + fixture.WT("後") + `</w:p>` +
		fixture.WP("二ページ目") +
		`<w:p>` + fixture.WT("段") + `<w:r><w:br w:type="column"/></w:r>` + fixture.WT("組") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore/></w:pPr>` + fixture.WT("三ページ目") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore w:val="0"/></w:pPr>` + fixture.WT("まだ三") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore w:val="false"/></w:pPr>` + fixture.WT("まだ三") + `</w:p>` +
		`<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:pageBreakBefore/><w:sectPr/></w:pPr></w:pPrChange></w:pPr>` + fixture.WT("変更履歴の旧書式") + `</w:p>` +
		`<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/></w:sectPr></w:pPr>` + fixture.WT("連続") + `</w:p>` +
		`<w:p><w:pPr><w:sectPr/></w:pPr>` + fixture.WT("次ページ節") + `</w:p>` +
		fixture.WP("四ページ目")

	docxObjects = fixture.WP("本文") +
		`<w:p>` + fixture.WR(`<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>`+
		`<wps:wsp><wps:txbx><w:txbxContent>`+fixture.WP("箱の")+fixture.WP("中身")+`</w:txbxContent></wps:txbx></wps:wsp>`+
		`</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>`+
		fixture.WP("箱の")+fixture.WP("中身")+`</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>`) + fixture.WT("錨") + `</w:p>` +
		`<w:p>` + fixture.BrPage + fixture.WR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdC"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:drawing><wp:inline><a:graphic><a:graphicData><dgm:relIds r:dm="rIdD" r:lo="rIdL"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdMissing"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + fixture.WR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdBroken"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>`

	docxCommentsBody = `<w:p>` + fixture.WT("指摘あり") + fixture.WR(`<w:commentReference w:id="1"/>`) + `</w:p>` +
		`<w:p>` + fixture.BrPage + fixture.WT("二ページ目") + fixture.WR(`<w:commentReference w:id="0"/>`) + fixture.WR(`<w:commentReference w:id="1"/>`) + `</w:p>`

	commentsXML = fixture.WPart("comments",
		`<w:comment w:id="5" w:author="山田">`+fixture.WP("脚注の")+fixture.WP("コメント")+`</w:comment>`+
			`<w:comment w:id="0" w:author="佐藤">`+fixture.WP("二ページ目の指摘")+`</w:comment>`+
			`<w:comment w:id="1" w:author="佐藤">`+fixture.WP("最初の")+fixture.WP("指摘")+`</w:comment>`+
			`<w:comment w:id="2" w:author="鈴木">`+fixture.WP("ヘッダーの指摘")+`</w:comment>`+
			`<w:comment w:id="3" w:author="鈴木"><w:p/></w:comment>`)
)

func TestDocx(t *testing.T) {
	tests := []struct {
		name  string
		parts []fixture.Part
	}{
		{"body", fixture.DocxParts(docxBody, nil)},
		{"rendered_pages", fixture.DocxParts(docxRendered, nil)},
		{"explicit_pages", fixture.DocxParts(docxExplicit, nil)},
		{"objects", fixture.DocxParts(docxObjects,
			[]string{"rIdC", "chart", "charts/chart1.xml", "rIdD", "diagramData", "diagrams/data1.xml",
				"rIdBroken", "chart", "charts/chart2.xml", "rIdL", "diagramLayout", "diagrams/layout1.xml"},
			fixture.Part{Name: "word/charts/chart1.xml", Body: fixture.ChartXML},
			fixture.Part{Name: "word/charts/chart2.xml", Body: "<c:chartSpace>"},
			fixture.Part{Name: "word/diagrams/data1.xml", Body: fixture.DiagramXML},
			fixture.Part{Name: "word/diagrams/drawing1.xml", Body: fixture.WPart("drw", fixture.WP("使わない"))})},
		{"comments", fixture.DocxParts(docxCommentsBody, []string{"rIdK", "comments", "comments.xml"},
			fixture.Part{Name: "word/comments.xml", Body: commentsXML},
			fixture.Part{Name: "word/footnotes.xml", Body: fixture.WPart("footnotes", `<w:footnote w:id="1">`+`<w:p>`+fixture.WT("注")+fixture.WR(`<w:commentReference w:id="5"/>`)+`</w:p></w:footnote>`)})},
		{"header_footer", fixture.DocxParts(fixture.WP("本文"), nil,
			fixture.Part{Name: "word/header2.xml", Body: fixture.WPart("hdr", fixture.WP("社外秘")+fixture.WP("第二ヘッダー"))},
			fixture.Part{Name: "word/header1.xml", Body: fixture.WPart("hdr", fixture.WP("社外秘")+`<w:p>`+fixture.WR(`<w:pict><v:shape><v:textbox><w:txbxContent>`+fixture.WP("ヘッダーの箱")+`</w:txbxContent></v:textbox></v:shape></w:pict>`)+fixture.WT("錨の段落")+`</w:p>`)},
			fixture.Part{Name: "word/footer1.xml", Body: fixture.WPart("ftr", fixture.WP("- 1 -")+fixture.WP("社外秘"))},
			fixture.Part{Name: "word/footer3.xml", Body: fixture.WPart("ftr", fixture.WP("最終フッター"))},
			fixture.Part{Name: "word/headers/notaheader.xml", Body: fixture.WPart("hdr", fixture.WP("読まない"))},
			fixture.Part{Name: "word/footnotes.xml", Body: fixture.WPart("footnotes",
				`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>`+
					`<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>`+
					`<w:footnote w:id="1">`+fixture.WP("脚注その一")+`</w:footnote><w:footnote w:id="2">`+fixture.WP("脚注その二")+`</w:footnote>`)},
			fixture.Part{Name: "word/endnotes.xml", Body: fixture.WPart("endnotes", `<w:endnote w:id="1">`+fixture.WP("文末脚注")+`</w:endnote>`)})},
		{"strict_namespace", []fixture.Part{{Name: "word/document.xml", Body: fixture.XMLHeader +
			`<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"><w:body>` +
			`<w:p><w:r><w:t>厳格</w:t></w:r></w:p><w:p><w:r><w:br w:type="page"/><w:t>形式</w:t></w:r></w:p></w:body></w:document>`}}},
		{"empty_body", fixture.DocxParts("", nil)},
		{"missing_body", []fixture.Part{{Name: "[Content_Types].xml", Body: fixture.ContentTypes}, {Name: "word/styles.xml", Body: fixture.WPart("styles", "")}}},
		{"broken_xml", []fixture.Part{{Name: "word/document.xml", Body: fixture.XMLHeader + `<w:document ` + fixture.NSDeclW + `><w:body><w:p>`}}},
		{"dtd", []fixture.Part{{Name: "word/document.xml", Body: fixture.XMLHeader + `<!DOCTYPE w:document [<!ENTITY x "y">]><w:document ` + fixture.NSDeclW + `><w:body/></w:document>`}}},
		{"broken_header", fixture.DocxParts(fixture.WP("本文"), nil, fixture.Part{Name: "word/header1.xml", Body: "<w:hdr"})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, ext := range []string{".docx", ".DOCM"} {
				res, err := fixture.ExtractBytes(t, "文書"+ext, fixture.ZipBytes(t, tc.parts...), extract.Options{})
				got := fixture.RenderResult(res, err)
				if ext == ".docx" {
					fixture.CheckGolden(t, tc.name, got)
				} else if want := fixture.RenderResult(fixture.ExtractBytes(t, "文書.docx", fixture.ZipBytes(t, tc.parts...), extract.Options{})); got != want {
					t.Errorf(".docm differs from .docx:\n%s\nwant\n%s", got, want)
				}
			}
		})
	}
}

func TestDocxNotZip(t *testing.T) {
	// Extract sends content that is no ZIP under an OOXML name to the
	// legacy classification (reference/extraction.md §10, tebunko's reroute
	// to Word): a broken package or compound file fails as corrupt; text
	// and RTF are opened as Word would open them (converted when
	// LibreOffice is installed) or fail with a per-file message. An empty
	// file is no such case: it holds nothing (TestExtractEmptyFiles).
	for _, data := range []string{"PK", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "plain text", "{\\rtf1 hello}"} {
		for _, name := range []string{"a.docx", "a.pptx"} {
			_, err := fixture.ExtractBytes(t, name, []byte(data), extract.Options{Scratch: t.TempDir()})
			var fe *extract.Error
			var post *extract.Postponed
			switch {
			case data == "PK" || strings.HasPrefix(data, "\xd0"):
				if !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, extract.MsgCorrupt) {
					t.Errorf("Extract(%s %q) = %v, want *Error %s…", name, data, err, extract.MsgCorrupt)
				}
			case err != nil && !errors.As(err, &fe) && !errors.As(err, &post):
				t.Errorf("Extract(%s %q) = %v, want places or a per-file failure", name, data, err)
			}
		}
	}
}
