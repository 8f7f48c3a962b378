package search_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// TestPlaceLabel: the label of each kind of place without a cell
// (reference/search.md §6.2: group headers, export, clipboard). Stored
// names keep their zero-padded form; only the label drops the zeros.
func TestPlaceLabel(t *testing.T) {
	for _, tc := range []struct {
		fk          extract.Kind
		place, want string
	}{
		{extract.KindExcel, "売上", "[シート]売上"},
		{extract.KindExcel, "売上[図形]", "[シート]売上"},
		{extract.KindExcel, "売上[コメント]", "[シート]売上"},
		{extract.KindExcel, "売上[ヘッダー・フッター]", "[シート]売上"},
		{extract.KindExcel, "原価[非表示]", "[シート]原価（非表示）"},
		{extract.KindExcel, "原価[非表示][図形]", "[シート]原価（非表示）"},
		{extract.KindExcel, "原価（非表示）", "[シート]原価（非表示）"}, // a visible sheet of that name
		{extract.KindExcel, "売上[埋め込み2]", "[シート]売上"},
		{extract.KindExcel, "4月\t売上\n表", "[シート]4月 売上 表"},
		{extract.KindExcel, "ページ003", "[シート]ページ003"},
		{extract.KindWord, "ページ003", "3 ページ"},
		{extract.KindWord, "ページ003[図形]", "3 ページ"},
		{extract.KindWord, "ページ012[コメント]", "12 ページ"},
		{extract.KindWord, "ページ003（目安）", "3 ページ（目安）"},
		{extract.KindWord, "ページ003（目安）[図形]", "3 ページ（目安）"},
		{extract.KindWord, "ページ100（目安）[コメント]", "100 ページ（目安）"},
		{extract.KindWord, "ページ001（目安）[埋め込み2]", "1 ページ（目安）"},
		{extract.KindWord, "ヘッダー・フッター", "ヘッダー・フッター"},
		{extract.KindWord, "脚注", "脚注"},
		{extract.KindWord, "文書[コメント]", "文書"},
		{extract.KindPDF, "ページ003", "3 ページ"},
		{extract.KindPDF, "ページ003[フォーム]", "3 ページ[フォーム]"}, // issue 33
		{extract.KindPDF, "ページ012[コメント]", "12 ページ"},
		{extract.KindPowerPoint, "スライド002", "スライド 2"},
		{extract.KindPowerPoint, "スライド002[図形]", "スライド 2"},
		{extract.KindPowerPoint, "スライド010[コメント]", "スライド 10"},
		{extract.KindPowerPoint, "スライド002（非表示）", "スライド 2（非表示）"},
		{extract.KindPowerPoint, "スライド002（非表示）[図形]", "スライド 2（非表示）"},
		{extract.KindPowerPoint, "スライド002_ノート", "スライド 2"},
		{extract.KindPowerPoint, "ヘッダー・フッター", "ヘッダー・フッター"},
		{extract.KindPowerPoint, "スライドA", "スライドA"},
		{extract.KindText, "本文", ""},
		// A PDF named .txt (issue 36 item 8).
		{extract.KindText, "ページ003", "3 ページ"},
		{extract.KindText, "ページ003[コメント]", "3 ページ"},
		{extract.KindText, "文書情報", "文書情報"},
		// Text read by OCR (issue 29): a scanned PDF page, an image file,
		// a page of a multi-page TIFF (image files have no kind of their own).
		{extract.KindPDF, "ページ003（OCR）", "3 ページ（OCR）"},
		{extract.KindPDF, "ページ012（OCR）", "12 ページ（OCR）"},
		{"", "画像（OCR）", "画像（OCR）"},
		{"", "画像002（OCR）", "2 ページ目の画像（OCR）"},
		{"", "画像010（OCR）", "10 ページ目の画像（OCR）"},
	} {
		if got := search.PlaceLabel(tc.fk, tc.place); got != tc.want {
			t.Errorf("PlaceLabel(%s, %q) = %q, want %q", tc.fk, tc.place, got, tc.want)
		}
	}
}

// TestIsOCR: the places whose hits say "ocr": true (issue 29), named by
// the extract package's own constructors.
func TestIsOCR(t *testing.T) {
	for _, tc := range []struct {
		fk    extract.Kind
		place string
		want  bool
	}{
		{extract.KindPDF, extract.OCRPageName(3), true},
		{"", extract.OCRImageName(2), true},
		{"", extract.PlaceImageOCR, true},
		{extract.KindPDF, extract.PageName(3), false},
		{extract.KindWord, extract.PageName(3) + extract.EstimateSuffix, false},
		{extract.KindText, "本文", false},
		{extract.KindExcel, "売上（OCR）", false},
	} {
		if got := search.IsOCR(tc.fk, tc.place); got != tc.want {
			t.Errorf("IsOCR(%s, %q) = %v, want %v", tc.fk, tc.place, got, tc.want)
		}
	}
}

// TestHitLabels: a search gives every row of reference/search.md §6.1 its
// label and kind, and search_results.txt writes the place of §6.2.
func TestHitLabels(t *testing.T) {
	sheet := make([]string, 11, 14) // rows 1–11 empty
	sheet = append(sheet, "品名\tれもん", "\tれもん\tれもん箱\tれもん", "れもん\t100")
	text := make([]string, 11, 12)
	text = append(text, "れもん 10 箱")
	root, ix := buildCorpus(t, []corpusFile{
		{`営業\見積.xlsx`, []extract.Place{
			pl("売上", sheet...),
			pl("売上[図形]", "D5\tれもんの図", "\tれもん無地"),
			pl("売上[コメント]", "B2\tれもん注"),
			pl("売上[ヘッダー・フッター]", "れもん社外秘"),
		}},
		{`営業\報告.docx`, []extract.Place{
			pl("ページ003", "れもんの出荷"),
			pl("ヘッダー・フッター", "れもん社外秘"),
			pl("脚注", "れもんの注"),
		}},
		{`営業\推定.docx`, []extract.Place{
			pl("ページ003（目安）", "れもんの本文"),
			pl("ページ003（目安）[図形]", "れもんの図"),
			pl("ページ004（目安）[コメント]", "れもんの確認"),
		}},
		{`営業\発表.pptx`, []extract.Place{
			pl("スライド002", "れもん新商品"),
			pl("スライド002[図形]", "れもんのグラフ"),
			pl("スライド002[コメント]", "れもんの意見"),
			pl("スライド002_ノート", "れもんを強調"),
			pl("スライド003（非表示）", "非表示のれもん"),
		}},
		{`営業\メモ.txt`, []extract.Place{pl("本文", text...)}},
		// Text read by OCR (issue 29).
		{`営業\スキャン.pdf`, []extract.Place{
			pl("ページ001", "れもんの表紙"),
			pl("ページ002（OCR）", "れもんの請求"),
		}},
		{`営業\ファクス.tif`, []extract.Place{
			pl("画像001（OCR）", "一枚目"),
			pl("画像002（OCR）", "れもん受注"),
		}},
		{`営業\看板.png`, []extract.Place{pl("画像（OCR）", "れもん看板")}},
	})
	// `(\t100)?` makes the match of row 14 span two cells: column unknown.
	hits, _, err := runQuery(t, root, ix, []string{`れもん(\t100)?`}, search.Options{Regex: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := export.Write(&out, "れもん", hits); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(out.String(), "\r\n\r\n"), "\r\n")[2:]
	if len(rows) != len(hits) {
		t.Fatalf("%d hits, %d export rows:\n%s", len(hits), len(rows), out.String())
	}
	// `path|label|kind|row|export place`
	var got []string
	for i, h := range hits {
		f := strings.SplitN(rows[i], "\t", 4)
		if f[0] != h.Path() || f[2] != h.Kind {
			t.Errorf("export row %q for hit %s %s %s", rows[i], h.Path(), h.Place, h.Kind)
		}
		got = append(got, strings.Join([]string{h.Path(), h.Label, h.Kind, strconv.Itoa(h.Row), f[1]}, "|"))
	}
	want := []string{
		`営業\見積.xlsx|[シート]売上!B12|セル|12|[シート]売上`,
		`営業\見積.xlsx|[シート]売上!B13 ほか 2|セル|13|[シート]売上`,
		`営業\見積.xlsx|[シート]売上 14 行目|セル|14|[シート]売上`,
		`営業\見積.xlsx|[シート]売上!D5|図形|5|[シート]売上`,
		`営業\見積.xlsx|[シート]売上|図形|2|[シート]売上`,
		`営業\見積.xlsx|[シート]売上!B2|コメント|2|[シート]売上`, // the cell's row (issue 32)
		`営業\見積.xlsx|[シート]売上|ヘッダー・フッター|1|[シート]売上`,
		`営業\報告.docx|3 ページ|本文|1|3 ページ`,
		`営業\報告.docx|ヘッダー・フッター|本文|1|ヘッダー・フッター`,
		`営業\報告.docx|脚注|本文|1|脚注`,
		`営業\推定.docx|3 ページ（目安）|本文|1|3 ページ（目安）`,
		`営業\推定.docx|3 ページ（目安）|図形|1|3 ページ（目安）`,
		`営業\推定.docx|4 ページ（目安）|コメント|1|4 ページ（目安）`,
		`営業\発表.pptx|スライド 2|本文|1|スライド 2`,
		`営業\発表.pptx|スライド 2|図形|1|スライド 2`,
		`営業\発表.pptx|スライド 2|コメント|1|スライド 2`,
		`営業\発表.pptx|スライド 2|ノート|1|スライド 2`,
		`営業\発表.pptx|スライド 3（非表示）|本文|1|スライド 3（非表示）`,
		`営業\メモ.txt|12 行目|本文|12|`,
		`営業\スキャン.pdf|1 ページ|本文|1|1 ページ`,
		`営業\スキャン.pdf|2 ページ（OCR）|本文|1|2 ページ（OCR）`,
		`営業\ファクス.tif|2 ページ目の画像（OCR）|本文|1|2 ページ目の画像（OCR）`,
		`営業\看板.png|画像（OCR）|本文|1|画像（OCR）`,
	}
	for _, h := range hits {
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		// Issue 32: a comment on B2 says row 2 in the JSON (and the
		// export above), while its line in the comment place stays 1 for
		// the preview.
		if h.Kind == "コメント" && h.Cell == "B2" && !bytes.Contains(b, []byte(`"row":2,"line":1,`)) {
			t.Errorf("comment on B2: JSON %s, want row 2 and line 1", b)
		}
		if ocr := strings.Contains(h.Place, "（OCR）"); h.OCR != ocr || bytes.Contains(b, []byte(`"ocr":true`)) != ocr {
			t.Errorf("hit %s %s: OCR %v, JSON %s", h.Path(), h.Place, h.OCR, b)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("labels\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
