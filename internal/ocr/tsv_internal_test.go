package ocr

import (
	"image"
	"slices"
	"strings"
	"testing"
)

const tsvHeader = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

// row is one TSV word row: block, par, line, conf, text.
func row(block, par, line int, conf, text string) string {
	return strings.Join([]string{"5", "1", itoa(block), itoa(par), itoa(line), "1", "0", "0", "10", "10", conf, text}, "\t") + "\n"
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestLines: Tesseract's TSV becomes one line per Tesseract line, CJK
// joined without the spaces Tesseract puts between its words, Latin
// words spaced, words under MinConfidence dropped, malformed rows
// skipped.
func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		tsv  string
		want []string
	}{
		{"CJK joined", row(1, 1, 1, "96", "見積") + row(1, 1, 1, "91", "書") + row(1, 1, 1, "90", "を") + row(1, 1, 1, "95", "送付"),
			[]string{"見積書を送付"}},
		{"Latin spaced", row(1, 1, 1, "96", "ISO") + row(1, 1, 1, "91", "9001") + row(1, 1, 1, "90", "認証") + row(1, 1, 1, "95", "取得"),
			[]string{"ISO 9001認証取得"}},
		{"mixed", row(1, 1, 1, "96", "東京") + row(1, 1, 1, "91", "Office") + row(1, 1, 1, "90", "365") + row(1, 1, 1, "95", "（株）"),
			[]string{"東京Office 365（株）"}},
		{"lines and blocks", row(1, 1, 1, "96", "一行目") + row(1, 1, 2, "96", "二行目") + row(2, 1, 1, "96", "次の") + row(2, 1, 1, "96", "段"),
			[]string{"一行目", "二行目", "次の段"}},
		{"low confidence dropped", row(1, 1, 1, "96", "請求") + row(1, 1, 1, "12", "#@") + row(1, 1, 1, "95", "金額") + row(1, 1, 2, "5", "~~~"),
			[]string{"請求金額"}},
		{"unsure kanji between sure words kept", row(1, 1, 1, "96", "会") + row(1, 1, 1, "0", "議") + row(1, 1, 1, "95", "資料"),
			[]string{"会議資料"}},
		{"unsure kanji at a line's end dropped", row(1, 1, 1, "96", "会") + row(1, 1, 1, "0", "議") + row(1, 1, 2, "95", "資料"),
			[]string{"会", "資料"}},
		{"unsure Latin between sure words dropped", row(1, 1, 1, "96", "会") + row(1, 1, 1, "0", "Se") + row(1, 1, 1, "95", "資料"),
			[]string{"会資料"}},
		{"three unsure kanji dropped", row(1, 1, 1, "96", "会") + row(1, 1, 1, "3", "議議議") + row(1, 1, 1, "95", "資料"),
			[]string{"会資料"}},
		{"malformed rows", tsvHeader + "5\tx\t1\t1\t1\t1\t0\t0\t1\t1\t90\tだめ\n" + "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\tconf\tだめ\n" +
			"4\t1\t1\t1\t1\t0\t0\t0\t1\t1\t-1\t\n" + "5\t1\t1\n" + row(1, 1, 1, "90", "良い") + row(1, 1, 1, "90", " "),
			[]string{"良い"}},
		{"empty", tsvHeader, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, _, _ := parseTSV([]byte(tsvHeader + tc.tsv)).lines(MinConfidence)
			if !slices.Equal(got, tc.want) {
				t.Errorf("lines = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestScore: the score weighs confidence by characters, so a reading
// with more text read surely wins.
func TestScore(t *testing.T) {
	_, s1, c1, m1 := parseTSV([]byte(row(1, 1, 1, "90", "見積書") + row(1, 1, 1, "50", "x"))).lines(MinConfidence)
	if c1 != 4 || s1 != 320 || m1 != 80 {
		t.Errorf("score, chars, mean = %v, %v, %v, want 320, 4, 80", s1, c1, m1)
	}
}

// TestRotate: OSD's rotations turn the page clockwise.
func TestRotate(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(g.Pix, []uint8{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		deg  int
		w, h int
		want []uint8
	}{
		{0, 3, 2, []uint8{1, 2, 3, 4, 5, 6}},
		{90, 2, 3, []uint8{4, 1, 5, 2, 6, 3}},
		{180, 3, 2, []uint8{6, 5, 4, 3, 2, 1}},
		{270, 2, 3, []uint8{3, 6, 2, 5, 1, 4}},
	} {
		r := rotate(g, tc.deg)
		if r.Rect.Dx() != tc.w || r.Rect.Dy() != tc.h || !slices.Equal(r.Pix, tc.want) {
			t.Errorf("rotate(%d) = %dx%d %v, want %dx%d %v", tc.deg, r.Rect.Dx(), r.Rect.Dy(), r.Pix, tc.w, tc.h, tc.want)
		}
	}
}

// TestFit: a page over the bound is scaled down to it, keeping its
// shape; one under it is left alone.
func TestFit(t *testing.T) {
	for _, tc := range []struct {
		w, h, max int
	}{
		{100, 50, 10000}, {1000, 500, 10000}, {3000, 1, 1000}, {1, 1, 1},
	} {
		g := image.NewGray(image.Rect(0, 0, tc.w, tc.h))
		r := fit(g, tc.max)
		px := r.Rect.Dx() * r.Rect.Dy()
		if px > tc.max || (tc.w*tc.h <= tc.max && r != g) || px < tc.max/2 && tc.w*tc.h > tc.max {
			t.Errorf("fit(%dx%d, %d) = %dx%d", tc.w, tc.h, tc.max, r.Rect.Dx(), r.Rect.Dy())
		}
	}
}
