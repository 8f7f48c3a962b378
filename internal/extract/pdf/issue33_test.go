package pdf

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestIssue33 reads PDFs as they come from the world (issue 33), fixtures
// written by LibreOffice and qpdf (testdata/gen.sh): every place's exact
// lines, and the log.
func TestIssue33(t *testing.T) {
	lo := map[string][]string{
		"文書情報":         {"見積書タイトルTITLEAA", "件名SUBJECTBB"},
		"ページ001":       {"東京都千代田区の見積書です。トークン PAGEONEAA 一頁目。", "二行目：株式会社文箱\u3000御中"},
		"ページ001[コメント]": {"確認してくださいCOMMENTCC"},
		"ページ002":       {"二頁目の本文 PAGETWOBB、金額は１２３４円。"},
		"ページ003":       {"三頁目 PAGETHREECC\u3000以上。"},
	}
	without := func(m map[string][]string, drop string) map[string][]string {
		out := map[string][]string{}
		for k, v := range m {
			if !strings.HasPrefix(k, drop) {
				out[k] = v
			}
		}
		return out
	}
	tests := []struct {
		file   string
		places map[string][]string // every place with its exact lines
		log    []string
	}{
		{
			// Characters outside the BMP are one rune each, not two
			// U+FFFD (the engine's text page holds UTF-16 units).
			file: "lo-supplementary.pdf",
			places: map[string][]string{"ページ001": {
				"子どもを𠮟る SUPAA", "𩸽の干物と𠀋SUPBB", "𠮷野家の𠮷田さん SUPCC", "絵文字😀SUPDD",
			}},
		},
		{
			// Filled AcroForm fields: the values, never the field
			// names (txtName...); LibreOffice writes its checked box
			// with an appearance state (/AS /Yes) its appearances lack,
			// so viewers and PDFium show it unchecked, and the
			// unchecked one gives nothing either.
			file: "lo-form.pdf",
			places: map[string][]string{
				"ページ001":       {"同意する", "不要", "確認済"},
				"ページ001[フォーム]": {"大阪府FORMCC", "転出届FORMDD"},
				"ページ002":       {"申請書の本文", "FORMPAGE"},
				"ページ002[フォーム]": {"山田太郎FORMAA", "東京都千代田区 丸の内一丁目FORMBB"},
			},
		},
		{
			// A signed signature field: the text its widget shows
			// (its appearance stream), never its name (Signature1) nor
			// its signature dictionary's entries (SIGREASONXX). Poppler
			// redraws fields under /NeedAppearances and so shows none.
			file: "qpdf-signature.pdf",
			places: map[string][]string{
				"ページ001":       {"同意する", "不要", "確認済"},
				"ページ001[フォーム]": {"大阪府FORMCC", "転出届FORMDD", "Signed by YAMADA Taro SIGNERZZ 2026-12-05 SIGDATEYY"},
				"ページ002":       {"申請書の本文", "FORMPAGE"},
				"ページ002[フォーム]": {"山田太郎FORMAA", "東京都千代田区 丸の内一丁目FORMBB"},
			},
		},
		{
			// One content stream, two pages cropped to its halves:
			// each page gives the text inside its crop box.
			file: "qpdf-cropped.pdf",
			places: map[string][]string{
				"ページ001": {"上半分の見積書 CROPTOPAA"},
				"ページ002": {"下半分の請求書 CROPBOTTOMBB"},
			},
		},
		{file: "lo-crop.pdf", places: map[string][]string{"ページ001": {"上半分の見積書 CROPTOPAA", "下半分の請求書 CROPBOTTOMBB"}}},
		{
			// A page that cannot be read is skipped and named in the
			// log; the others are read.
			file:   "qpdf-badpage.pdf",
			places: without(lo, "ページ002"),
			log:    []string{"    一部を読み取れませんでした: ページ002"},
		},
		{file: "qpdf-rotated.pdf", places: lo},
		{file: "junk-header.pdf", places: lo},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := readFixture(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if got := places(r); !reflect.DeepEqual(got, tt.places) {
				t.Errorf("places =\n%q\nwant\n%q", got, tt.places)
			}
			if !reflect.DeepEqual(r.Log, tt.log) {
				t.Errorf("log = %q, want %q", r.Log, tt.log)
			}
		})
	}
}

// TestIssue33AllPagesBad: a document none of whose pages can be read
// fails as a broken file, as before.
func TestIssue33AllPagesBad(t *testing.T) {
	_, err := readFixture(t, "qpdf-allbad.pdf")
	var xerr *extract.Error
	if !errors.As(err, &xerr) || xerr.Msg != extract.MsgCorrupt {
		t.Fatalf("err = %v, want %q", err, extract.MsgCorrupt)
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"見積書", "見積書"},
		{"a\x02b\x08c\x7fd\u0085e", "abcde"},
		{"行1\r\n行2\tX", "行1\r\n行2 X"},
		{"\ufffd𠮟\ufffe\uffff\ufdd0る", "𠮟る"},
		{"\U0001FFFE絵", "絵"},
		{"o\ufb03ce \ufb01le \ufb02ow", "office file flow"},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCroppedGlyphs: fonts without a ToUnicode map on cropped pages
// (qdfedit.py cropglyphs over py-shifted.pdf, py-type3.pdf and
// py-cid.pdf): the characters inside the crop box, recovered as on a
// whole page (the shifted TrueType codes, Type 3 names, CID glyph indexes
// and a broken CID map), and nothing of the text outside.
func TestCroppedGlyphs(t *testing.T) {
	r, err := readFixture(t, "qpdf-cropglyphs.pdf")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"ページ001": {"Lorem ipsum dolor"},
		"ページ002": {"The office 日本", "DIFFffi The テト DIFFSAA"},
		"ページ003": {"Привет мир", "Добрый ден"},
	}
	if got := places(r); !reflect.DeepEqual(got, want) {
		t.Errorf("places =\n%q\nwant\n%q", got, want)
	}
}
