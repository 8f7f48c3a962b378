package extract_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// Fixtures for the Excel reader: workbooks built with excelize, then
// patched where excelize cannot write what Excel writes (formula cells
// with cached values, threaded comments, SmartArt, chart series name
// caches). Each builder returns the .xlsx bytes.

// xlsxBuilders are the golden cases (testdata/xlsx/<name>.golden).
var xlsxBuilders = map[string]func(testing.TB) []byte{
	"cells":      xlsxCellsFixture,
	"layout":     xlsxLayoutFixture,
	"visibility": xlsxVisibilityFixture,
	"objects":    xlsxObjectsFixture,
}

func xlsxNoErr(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func xlsxStyle(tb testing.TB, f *excelize.File, code string, id int) int {
	tb.Helper()
	st := &excelize.Style{NumFmt: id}
	if code != "" {
		st = &excelize.Style{CustomNumFmt: &code}
	}
	s, err := f.NewStyle(st)
	xlsxNoErr(tb, err)
	return s
}

func xlsxSave(tb testing.TB, f *excelize.File) []byte {
	tb.Helper()
	var buf bytes.Buffer
	xlsxNoErr(tb, f.Write(&buf))
	xlsxNoErr(tb, f.Close())
	return buf.Bytes()
}

// xlsxPatch rewrites a package: edit may change a part (return it
// unchanged to keep it) and add holds extra parts.
func xlsxPatch(tb testing.TB, data []byte, edit func(name string, b []byte) []byte, add map[string]string) []byte {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	xlsxNoErr(tb, err)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		xlsxNoErr(tb, err)
		b, err := io.ReadAll(rc)
		xlsxNoErr(tb, err)
		rc.Close()
		if edit != nil {
			b = edit(f.Name, b)
		}
		w, err := zw.Create(f.Name)
		xlsxNoErr(tb, err)
		_, err = w.Write(b)
		xlsxNoErr(tb, err)
	}
	names := make([]string, 0, len(add))
	for n := range add {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		xlsxNoErr(tb, err)
		_, err = w.Write([]byte(add[n]))
		xlsxNoErr(tb, err)
	}
	xlsxNoErr(tb, zw.Close())
	return buf.Bytes()
}

// xlsxSetCell replaces the c element of ref in a worksheet XML.
func xlsxSetCell(tb testing.TB, sheet []byte, ref, cell string) []byte {
	tb.Helper()
	re := regexp.MustCompile(`<c r="` + ref + `"[^>]*?(/>|>.*?</c>)`)
	if !re.Match(sheet) {
		tb.Fatalf("cell %s not in sheet XML", ref)
	}
	return re.ReplaceAllLiteral(sheet, []byte(cell))
}

func xlsxCellsFixture(tb testing.TB) []byte {
	f := excelize.NewFile()
	const s = "一覧"
	xlsxNoErr(tb, f.SetSheetName("Sheet1", s))
	set := func(cell string, v any, style int) {
		xlsxNoErr(tb, f.SetCellValue(s, cell, v))
		if style != 0 {
			xlsxNoErr(tb, f.SetCellStyle(s, cell, cell, style))
		}
	}
	for i, h := range []string{"品名", "数量", "単価", "日付", "率", "有効"} {
		set(string(rune('A'+i))+"1", h, 0)
	}
	set("A2", "りんご", 0)
	set("B2", 1234567.891, xlsxStyle(tb, f, "", 3))
	set("C2", 1234.5, xlsxStyle(tb, f, "", 4))
	set("D2", 45306, xlsxStyle(tb, f, "", 14))
	set("E2", 0.256, xlsxStyle(tb, f, "", 9))
	set("F2", true, 0)
	set("A3", 123456789012, 0)
	set("B3", 4901234567894, 0)
	set("C3", 123456789.123, 0)
	set("D3", 12345678901, 0)
	set("E3", -0.5, 0)
	set("F3", false, 0)
	general := xlsxStyle(tb, f, "General", 0)
	set("G3", 0.1+0.2, general)
	for _, c := range []string{"A4", "B4", "C4", "D4", "E4", "F4", "G4"} {
		set(c, 0, 0)
	}
	set("A5", 43586, xlsxStyle(tb, f, `[$-411]ggge"年"m"月"d"日"`, 0))
	set("B5", 0.5, xlsxStyle(tb, f, "h:mm:ss", 0))
	set("C5", 45306.75, xlsxStyle(tb, f, "", 22))
	set("D5", 45306, xlsxStyle(tb, f, "yyyy/mm/dd (aaa)", 0))
	set("E5", 12.5, xlsxStyle(tb, f, `#,##0"円"`, 0))
	set("F5", -1234, xlsxStyle(tb, f, `"¥"#,##0;"¥"\-#,##0`, 0))
	set("G5", 1234567, xlsxStyle(tb, f, "000-0000", 0))
	set("A6", "001", xlsxStyle(tb, f, "", 49))
	set("B6", 42, xlsxStyle(tb, f, "", 49))
	set("C6", "名前", xlsxStyle(tb, f, `"氏名: "@`, 0))
	set("D6", time.Date(2024, 3, 1, 9, 5, 0, 0, time.UTC), xlsxStyle(tb, f, "yyyy/m/d h:mm", 0))
	set("E6", 1.5, xlsxStyle(tb, f, "[h]:mm", 0))
	set("F6", 0.000123, xlsxStyle(tb, f, "0.00E+00", 0))
	set("A8", "終わり", 0)
	numStyle := xlsxStyle(tb, f, "#,##0", 0)
	data := xlsxSave(tb, f)
	return xlsxPatch(tb, data, func(name string, b []byte) []byte {
		if name != "xl/worksheets/sheet1.xml" {
			return b
		}
		b = xlsxSetCell(tb, b, "A4", `<c r="A4" t="e"><f>1/0</f><v>#DIV/0!</v></c>`)
		b = xlsxSetCell(tb, b, "B4", `<c r="B4" t="e"><f>NA()</f><v>#N/A</v></c>`)
		b = xlsxSetCell(tb, b, "C4", fmt.Sprintf(`<c r="C4" s="%d"><f>SUM(B2:B3)</f><v>4901236802461.891</v></c>`, numStyle))
		b = xlsxSetCell(tb, b, "D4", `<c r="D4" t="str"><f>"合計"&amp;"額"</f><v>合計額</v></c>`)
		b = xlsxSetCell(tb, b, "E4", `<c r="E4" t="b"><f>TRUE()</f><v>1</v></c>`)
		b = xlsxSetCell(tb, b, "F4", `<c r="F4"><f>A1</f></c>`)
		b = xlsxSetCell(tb, b, "G4", `<c r="G4" t="inlineStr"><is><r><t>インライン</t></r><rPh sb="0" eb="1"><t>いんらいん</t></rPh></is></c>`)
		return b
	}, nil)
}

func xlsxLayoutFixture(tb testing.TB) []byte {
	f := excelize.NewFile()
	const s = "配置"
	xlsxNoErr(tb, f.SetSheetName("Sheet1", s))
	for cell, v := range map[string]any{
		"C5": "品名", "D5": "数量",
		"C7": "りんご\n青森産", "D7": 10, "E7": `特"A"級`, "F7": "タブ\t入り",
		"E8": "改行\r\nCRLF", "H8": "",
	} {
		xlsxNoErr(tb, f.SetCellValue(s, cell, v))
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	xlsxNoErr(tb, err)
	xlsxNoErr(tb, f.SetCellStyle(s, "C9", "J12", bold)) // formatted but empty: trailing rows go
	_, err = f.NewSheet("空白")
	xlsxNoErr(tb, err)
	xlsxNoErr(tb, f.SetCellValue("空白", "B2", "   "))
	_, err = f.NewSheet("空")
	xlsxNoErr(tb, err)
	_, err = f.NewSheet("2024_上期")
	xlsxNoErr(tb, err)
	xlsxNoErr(tb, f.SetCellValue("2024_上期", "A1", "アンダースコア"))
	return xlsxSave(tb, f)
}

func xlsxColumnChart(sheet string) *excelize.Chart {
	return &excelize.Chart{
		Type: excelize.Col,
		Series: []excelize.ChartSeries{{
			Name:       sheet + "!$B$1",
			Categories: sheet + "!$A$2:$A$3",
			Values:     sheet + "!$B$2:$B$3",
		}},
		Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "売上推移"}}},
		XAxis: excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "月"}}}},
		YAxis: excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "金額"}}}},
	}
}

func xlsxVisibilityFixture(tb testing.TB) []byte {
	f := excelize.NewFile()
	xlsxNoErr(tb, f.SetSheetName("Sheet1", "表示"))
	xlsxNoErr(tb, f.SetCellValue("表示", "A1", "見える"))
	xlsxNoErr(tb, f.SetCellValue("表示", "B1", "数量"))
	xlsxNoErr(tb, f.SetCellValue("表示", "A2", "1月"))
	xlsxNoErr(tb, f.SetCellValue("表示", "B2", 10))
	for _, n := range []string{"非表示", "超非表示"} {
		_, err := f.NewSheet(n)
		xlsxNoErr(tb, err)
		xlsxNoErr(tb, f.SetCellValue(n, "A1", n+"の中身"))
		xlsxNoErr(tb, f.AddComment(n, excelize.Comment{Cell: "A1", Author: "山田", Text: "隠しコメント"}))
	}
	xlsxNoErr(tb, f.SetSheetVisible("非表示", false))
	xlsxNoErr(tb, f.SetSheetVisible("超非表示", false, true))
	xlsxNoErr(tb, f.AddChartSheet("グラフ", xlsxColumnChart("表示")))
	xlsxNoErr(tb, f.AddChartSheet("隠しグラフ", xlsxColumnChart("表示")))
	_, err := f.NewSheet("最後")
	xlsxNoErr(tb, err)
	xlsxNoErr(tb, f.SetCellValue("最後", "A1", "末尾"))
	data := xlsxSeriesCache(tb, xlsxSave(tb, f), "数量")
	// excelize cannot set a chart sheet's header/footer.
	// excelize cannot hide a chart sheet either.
	return xlsxPatch(tb, data, func(n string, b []byte) []byte {
		switch {
		case strings.HasPrefix(n, "xl/chartsheets/sheet"):
			return bytes.Replace(b, []byte("<drawing "), []byte(`<headerFooter><oddHeader>&amp;C&amp;"Arial,Bold"グラフ見出し&amp;R&amp;P</oddHeader></headerFooter><drawing `), 1)
		case n == "xl/workbook.xml":
			return bytes.Replace(b, []byte(`name="隠しグラフ"`), []byte(`name="隠しグラフ" state="hidden"`), 1)
		}
		return b
	}, nil)
}

// xlsxSeriesCache adds the string cache Excel writes for a series name
// linked to a cell (excelize writes only the reference).
func xlsxSeriesCache(tb testing.TB, data []byte, name string) []byte {
	re := regexp.MustCompile(`<(c:)?tx><(?:c:)?strRef><(?:c:)?f>[^<]*</(?:c:)?f>`)
	return xlsxPatch(tb, data, func(n string, b []byte) []byte {
		if !strings.HasPrefix(n, "xl/charts/chart") {
			return b
		}
		return re.ReplaceAll(b, []byte(`${0}<${1}strCache><${1}ptCount val="1"/><${1}pt idx="0"><${1}v>`+name+`</${1}v></${1}pt></${1}strCache>`))
	}, nil)
}

const (
	xlsxThreadedPart = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<threadedComment ref="B3" dT="2024-01-15T10:00:00.00" personId="{00000000-0000-0000-0000-000000000001}" id="{00000000-0000-0000-0000-0000000000A1}"><text>納期は？</text></threadedComment>
<threadedComment ref="B3" dT="2024-01-15T11:00:00.00" personId="{00000000-0000-0000-0000-000000000002}" id="{00000000-0000-0000-0000-0000000000A2}" parentId="{00000000-0000-0000-0000-0000000000A1}"><text>来週です</text><mentions/></threadedComment>
<threadedComment ref="A9" dT="2024-01-15T12:00:00.00" personId="{00000000-0000-0000-0000-000000000001}" id="{00000000-0000-0000-0000-0000000000A3}"><text>スレッドだけ</text></threadedComment>
</ThreadedComments>`
	xlsxDiagramData = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">
<dgm:ptLst>
<dgm:pt modelId="{1}" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr lang="ja-JP"/></a:p></dgm:t></dgm:pt>
<dgm:pt modelId="{2}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:rPr lang="ja-JP"/><a:t>企画</a:t></a:r></a:p></dgm:t></dgm:pt>
<dgm:pt modelId="{3}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>開発</a:t></a:r></a:p></dgm:t></dgm:pt>
</dgm:ptLst><dgm:cxnLst/><dgm:bg/><dgm:whole/></dgm:dataModel>`
	xlsxSmartArtAnchor = `<xdr:twoCellAnchor><xdr:from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>19</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>5</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>25</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="90" name="図表 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:dm="rIdDgm1" r:lo="rIdDgm2" r:qs="rIdDgm3" r:cs="rIdDgm4"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>` +
		`<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" Requires="a14"><xdr:oneCellAnchor><xdr:from><xdr:col>7</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="1" cy="1"/><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="91" name="TextBox 91"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr/><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>選択肢</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:oneCellAnchor></mc:Choice><mc:Fallback><xdr:oneCellAnchor><xdr:from><xdr:col>7</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="1" cy="1"/><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="92" name="TextBox 92"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr/><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>代替</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:oneCellAnchor></mc:Fallback></mc:AlternateContent>` +
		`<xdr:absoluteAnchor><xdr:pos x="0" y="0"/><xdr:ext cx="1" cy="1"/><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="93" name="TextBox 93"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr/><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>絶対位置</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:absoluteAnchor>`
)

func xlsxObjectsFixture(tb testing.TB) []byte {
	f := excelize.NewFile()
	const s = "図"
	xlsxNoErr(tb, f.SetSheetName("Sheet1", s))
	xlsxNoErr(tb, f.SetCellValue(s, "A1", "月"))
	xlsxNoErr(tb, f.SetCellValue(s, "B1", "売上"))
	xlsxNoErr(tb, f.SetCellValue(s, "A2", "1月"))
	xlsxNoErr(tb, f.SetCellValue(s, "B2", 100))
	xlsxNoErr(tb, f.SetCellValue(s, "A3", "2月"))
	xlsxNoErr(tb, f.SetCellValue(s, "B3", 120))
	xlsxNoErr(tb, f.AddShape(s, &excelize.Shape{Cell: "F2", Type: "rect", Paragraph: []excelize.RichTextRun{{Text: "納期は別途相談"}}}))
	xlsxNoErr(tb, f.AddShape(s, &excelize.Shape{Cell: "C12", Type: "rect", Paragraph: []excelize.RichTextRun{
		{Text: "一行目"}, {Text: "（続き）"},
	}}))
	xlsxNoErr(tb, f.AddShape(s, &excelize.Shape{Cell: "J30", Type: "ellipse"}))
	xlsxNoErr(tb, f.AddChart(s, "D10", xlsxColumnChart(s)))
	xlsxNoErr(tb, f.AddComment(s, excelize.Comment{Cell: "D5", Author: "山田", Paragraph: []excelize.RichTextRun{
		{Text: "山田:", Font: &excelize.Font{Bold: true}}, {Text: "\n至急確認"},
	}}))
	xlsxNoErr(tb, f.AddComment(s, excelize.Comment{Cell: "B3", Author: "tc", Text: "[スレッド形式のコメント] 互換用の文字列"}))
	xlsxNoErr(tb, f.AddComment(s, excelize.Comment{Cell: "A2", Author: "佐藤", Text: `引用"符"`}))
	xlsxNoErr(tb, f.SetHeaderFooter(s, &excelize.HeaderFooterOptions{
		DifferentFirst: true,
		OddHeader:      `&L&"ＭＳ ゴシック,太字"社外秘&C&P / &N&RR&&D部 &14作成`,
		OddFooter:      "&C&D&T作成日\n版 2",
		EvenHeader:     "偶数ページ（無効）",
		FirstHeader:    "&C表紙",
	}))
	data := xlsxSeriesCache(tb, xlsxSave(tb, f), "売上")
	return xlsxPatch(tb, data, func(name string, b []byte) []byte {
		switch name {
		case "xl/drawings/drawing1.xml":
			return bytes.Replace(b, []byte("</xdr:wsDr>"), []byte(xlsxSmartArtAnchor+"</xdr:wsDr>"), 1)
		case "xl/drawings/_rels/drawing1.xml.rels":
			return bytes.Replace(b, []byte("</Relationships>"), []byte(`<Relationship Id="rIdDgm1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="../diagrams/data1.xml"/></Relationships>`), 1)
		case "xl/worksheets/_rels/sheet1.xml.rels":
			return bytes.Replace(b, []byte("</Relationships>"), []byte(`<Relationship Id="rIdTc1" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" Target="../threadedComments/threadedComment1.xml"/></Relationships>`), 1)
		}
		return b
	}, map[string]string{
		"xl/threadedComments/threadedComment1.xml": xlsxThreadedPart,
		"xl/diagrams/data1.xml":                    xlsxDiagramData,
	})
}
