package extract_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// run wraps runs of text.
func wR(inner string) string { return "<w:r>" + inner + "</w:r>" }
func wT(s string) string     { return wR(`<w:t xml:space="preserve">` + s + `</w:t>`) }

const lrpb = `<w:r><w:lastRenderedPageBreak/></w:r>`
const brPage = `<w:r><w:br w:type="page"/></w:r>`

// Fixture bodies, one per place kind or page rule.
var (
	docxBody = wP("前文") +
		// tab, br, cr, noBreakHyphen, TAB in text; tab stops and run
		// properties are not text.
		`<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>` +
		wR(`<w:rPr><w:b/></w:rPr><w:t>A</w:t><w:tab/><w:t>B</w:t><w:br/><w:t>C</w:t><w:cr/><w:t>D</w:t><w:noBreakHyphen/><w:t>E`+"\t"+`F</w:t>`) + `</w:p>` +
		// tracked changes and field codes
		`<w:p>` + wT("残す") + `<w:del><w:r><w:delText>消した</w:delText></w:r></w:del>` +
		`<w:ins>` + wT("挿入") + `</w:ins><w:moveFrom>` + wT("移動元") + `</w:moveFrom><w:moveTo>` + wT("移動先") + `</w:moveTo>` +
		wR(`<w:fldChar w:fldCharType="begin"/>`) + wR(`<w:instrText> PAGE </w:instrText>`) + wR(`<w:fldChar w:fldCharType="separate"/>`) +
		wT("7") + wR(`<w:fldChar w:fldCharType="end"/>`) + `</w:p>` +
		// empty and blank paragraphs vanish
		`<w:p/>` + wP("　 ") +
		// content control
		`<w:sdt><w:sdtContent>` + wP("コントロール") + `</w:sdtContent></w:sdt>` +
		// tables: leading empty cell kept, trailing empty cells dropped,
		// paragraphs of a cell joined by spaces, nested table flattened
		`<w:tbl>` + wRow("品名", "数量", "", "") + wRow("", "空き") +
		`<w:tr><w:tc>` + wP("一段") + wP("二段") + `</w:tc><w:tc><w:tbl>` + wRow("内1", "内2") + wRow("内3") + `</w:tbl>` + wP("後") + `</w:tc></w:tr>` +
		`</w:tbl>` +
		// alternate content: only the first choice is read
		`<mc:AlternateContent><mc:Choice Requires="w14">` + wP("選択1") + `</mc:Choice><mc:Choice Requires="w15">` + wP("選択2") +
		`</mc:Choice><mc:Fallback>` + wP("代替") + `</mc:Fallback></mc:AlternateContent>`

	docxRendered = wP("一ページ目") +
		`<w:p>` + lrpb + wT("二ページ目") + `</w:p>` +
		`<w:p>` + wT("途中") + lrpb + wT("続き") + `</w:p>` +
		// an explicit break followed by Word's rendered break counts once
		`<w:p>` + brPage + lrpb + wT("四ページ目") + `</w:p>` +
		// a section break takes effect after its paragraph
		`<w:p><w:pPr><w:sectPr><w:type w:val="nextPage"/></w:sectPr></w:pPr>` + wT("節の終わり") + `</w:p>` +
		`<w:tbl><w:tr><w:tc><w:p>` + lrpb + wT("表") + `</w:p></w:tc><w:tc>` + wP("五") + `</w:tc></w:tr>` +
		`<w:tr><w:tc>` + wP("同じページ") + `</w:tc></w:tr></w:tbl>` +
		`<w:p>` + lrpb + wT("六ページ目") + `</w:p>` +
		`<w:p>` + lrpb + `</w:p>` + `<w:p>` + lrpb + wT("八ページ目") + `</w:p>`

	docxExplicit = `<w:p><w:pPr><w:pageBreakBefore/></w:pPr>` + wT("最初") + `</w:p>` +
		`<w:p>` + wT("前") + brPage + wT("後") + `</w:p>` +
		wP("二ページ目") +
		`<w:p>` + wT("段") + `<w:r><w:br w:type="column"/></w:r>` + wT("組") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore/></w:pPr>` + wT("三ページ目") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore w:val="0"/></w:pPr>` + wT("まだ三") + `</w:p>` +
		`<w:p><w:pPr><w:pageBreakBefore w:val="false"/></w:pPr>` + wT("まだ三") + `</w:p>` +
		`<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:pageBreakBefore/><w:sectPr/></w:pPr></w:pPrChange></w:pPr>` + wT("変更履歴の旧書式") + `</w:p>` +
		`<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/></w:sectPr></w:pPr>` + wT("連続") + `</w:p>` +
		`<w:p><w:pPr><w:sectPr/></w:pPr>` + wT("次ページ節") + `</w:p>` +
		wP("四ページ目")

	docxObjects = wP("本文") +
		`<w:p>` + wR(`<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>`+
		`<wps:wsp><wps:txbx><w:txbxContent>`+wP("箱の")+wP("中身")+`</w:txbxContent></wps:txbx></wps:wsp>`+
		`</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>`+
		wP("箱の")+wP("中身")+`</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>`) + wT("錨") + `</w:p>` +
		`<w:p>` + brPage + wR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdC"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + wR(`<w:drawing><wp:inline><a:graphic><a:graphicData><dgm:relIds r:dm="rIdD" r:lo="rIdL"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + wR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdMissing"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>` +
		`<w:p>` + wR(`<w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rIdBroken"/></a:graphicData></a:graphic></wp:inline></w:drawing>`) + `</w:p>`

	chartXML = xmlHeader + `<c:chartSpace ` + nsDeclW + `><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>売上推移</a:t></a:r></a:p></c:rich></c:tx></c:title>` +
		`<c:plotArea><c:barChart>` +
		`<c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:pt idx="0"><c:v>東日本</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
		`<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>1月</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
		`<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>100</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>` +
		`<c:ser><c:tx><c:v>西日本</c:v></c:tx><c:dLbls><c:dLbl><c:tx><c:rich><a:p><a:r><a:t>最高</a:t></a:r></a:p></c:rich></c:tx></c:dLbl></c:dLbls></c:ser>` +
		`<c:ser><c:tx><c:v>東日本</c:v></c:tx></c:ser>` +
		`</c:barChart><c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>金額</a:t></a:r><a:r><a:t>（円）</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx>` +
		`</c:plotArea></c:chart></c:chartSpace>`

	diagramXML = xmlHeader + `<dgm:dataModel ` + nsDeclW + `><dgm:ptLst>` +
		`<dgm:pt modelId="1" type="doc"><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>` +
		`<dgm:pt modelId="2"><dgm:t><a:bodyPr/><a:p><a:r><a:t>企画</a:t></a:r></a:p></dgm:t></dgm:pt>` +
		`<dgm:pt modelId="3"><dgm:t><a:bodyPr/><a:p><a:r><a:t>実行</a:t></a:r></a:p></dgm:t></dgm:pt>` +
		`</dgm:ptLst></dgm:dataModel>`

	docxCommentsBody = `<w:p>` + wT("指摘あり") + wR(`<w:commentReference w:id="1"/>`) + `</w:p>` +
		`<w:p>` + brPage + wT("二ページ目") + wR(`<w:commentReference w:id="0"/>`) + wR(`<w:commentReference w:id="1"/>`) + `</w:p>`

	commentsXML = wPart("comments",
		`<w:comment w:id="5" w:author="山田">`+wP("脚注の")+wP("コメント")+`</w:comment>`+
			`<w:comment w:id="0" w:author="佐藤">`+wP("二ページ目の指摘")+`</w:comment>`+
			`<w:comment w:id="1" w:author="佐藤">`+wP("最初の")+wP("指摘")+`</w:comment>`+
			`<w:comment w:id="2" w:author="鈴木">`+wP("ヘッダーの指摘")+`</w:comment>`+
			`<w:comment w:id="3" w:author="鈴木"><w:p/></w:comment>`)
)

func TestDocx(t *testing.T) {
	tests := []struct {
		name  string
		parts []part
	}{
		{"body", docxParts(docxBody, nil)},
		{"rendered_pages", docxParts(docxRendered, nil)},
		{"explicit_pages", docxParts(docxExplicit, nil)},
		{"objects", docxParts(docxObjects,
			[]string{"rIdC", "chart", "charts/chart1.xml", "rIdD", "diagramData", "diagrams/data1.xml",
				"rIdBroken", "chart", "charts/chart2.xml", "rIdL", "diagramLayout", "diagrams/layout1.xml"},
			part{"word/charts/chart1.xml", chartXML},
			part{"word/charts/chart2.xml", "<c:chartSpace>"},
			part{"word/diagrams/data1.xml", diagramXML},
			part{"word/diagrams/drawing1.xml", wPart("drw", wP("使わない"))})},
		{"comments", docxParts(docxCommentsBody, []string{"rIdK", "comments", "comments.xml"},
			part{"word/comments.xml", commentsXML},
			part{"word/footnotes.xml", wPart("footnotes", `<w:footnote w:id="1">`+`<w:p>`+wT("注")+wR(`<w:commentReference w:id="5"/>`)+`</w:p></w:footnote>`)})},
		{"header_footer", docxParts(wP("本文"), nil,
			part{"word/header2.xml", wPart("hdr", wP("社外秘")+wP("第二ヘッダー"))},
			part{"word/header1.xml", wPart("hdr", wP("社外秘")+`<w:p>`+wR(`<w:pict><v:shape><v:textbox><w:txbxContent>`+wP("ヘッダーの箱")+`</w:txbxContent></v:textbox></v:shape></w:pict>`)+wT("錨の段落")+`</w:p>`)},
			part{"word/footer1.xml", wPart("ftr", wP("- 1 -")+wP("社外秘"))},
			part{"word/footer3.xml", wPart("ftr", wP("最終フッター"))},
			part{"word/headers/notaheader.xml", wPart("hdr", wP("読まない"))},
			part{"word/footnotes.xml", wPart("footnotes",
				`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>`+
					`<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>`+
					`<w:footnote w:id="1">`+wP("脚注その一")+`</w:footnote><w:footnote w:id="2">`+wP("脚注その二")+`</w:footnote>`)},
			part{"word/endnotes.xml", wPart("endnotes", `<w:endnote w:id="1">`+wP("文末脚注")+`</w:endnote>`)})},
		{"strict_namespace", []part{{"word/document.xml", xmlHeader +
			`<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"><w:body>` +
			`<w:p><w:r><w:t>厳格</w:t></w:r></w:p><w:p><w:r><w:br w:type="page"/><w:t>形式</w:t></w:r></w:p></w:body></w:document>`}}},
		{"empty_body", docxParts("", nil)},
		{"missing_body", []part{{"[Content_Types].xml", contentTypes}, {"word/styles.xml", wPart("styles", "")}}},
		{"broken_xml", []part{{"word/document.xml", xmlHeader + `<w:document ` + nsDeclW + `><w:body><w:p>`}}},
		{"dtd", []part{{"word/document.xml", xmlHeader + `<!DOCTYPE w:document [<!ENTITY x "y">]><w:document ` + nsDeclW + `><w:body/></w:document>`}}},
		{"broken_header", docxParts(wP("本文"), nil, part{"word/header1.xml", "<w:hdr"})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, ext := range []string{".docx", ".DOCM"} {
				res, err := ooxmlExtractBytes(t, "文書"+ext, zipBytes(t, tc.parts...), extract.Options{})
				got := renderResult(res, err)
				if ext == ".docx" {
					checkGolden(t, tc.name, got)
				} else if want := renderResult(ooxmlExtractBytes(t, "文書.docx", zipBytes(t, tc.parts...), extract.Options{})); got != want {
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
			_, err := ooxmlExtractBytes(t, name, []byte(data), extract.Options{Scratch: t.TempDir()})
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
