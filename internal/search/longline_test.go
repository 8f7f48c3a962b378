package search_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// checkCut checks a hit's text against the 1,000/200 rule and that every
// match covers want in the cut text.
func checkCut(t *testing.T, h search.Hit, want string) {
	t.Helper()
	body := strings.TrimSuffix(strings.TrimPrefix(h.Text, "…"), "…")
	if n := utf8.RuneCountInString(body); n > search.HitLineMaxChars {
		t.Errorf("hit text of %d characters", n)
	}
	if strings.Contains(h.Text, extract.ContinuationMark) {
		t.Errorf("hit text holds the continuation mark")
	}
	if len(h.Matches) == 0 {
		t.Fatalf("no matches in %.40q", h.Text)
	}
	for _, m := range h.Matches {
		if m[0] < 0 || m[1] > len(h.Text) || m[0] >= m[1] {
			t.Fatalf("match %v outside the text (%d bytes)", m, len(h.Text))
		}
		if got := h.Text[m[0]:m[1]]; !strings.EqualFold(got, want) {
			t.Errorf("match %v covers %q, want %q", m, got, want)
		}
	}
}

// TestIssue36LongLineHits: a line split by extract.Extract is searched
// piece by piece: a word across a cut is found, a continuation keeps its
// line's number (an Excel row's label names the row), the mark never
// shows, and every hit is cut to 1,000 characters around its match with
// its matches pointing into the cut text.
func TestIssue36LongLineHits(t *testing.T) {
	const fill = "あいうえおかきくけこ"
	pad := func(runes int) string { return strings.Repeat(fill, runes/10) + fill[:3*(runes%10)] }
	// 境界語 straddles the first cut: it starts 2 runes before it.
	cut := extract.LineMaxRunes
	long := "冒頭語" + pad(cut-3-2) + "境界語" + pad(extract.LineMaxRunes) + "中間語" + pad(5000) + "末尾語"
	text := extract.AppendLine(nil, long)
	row := strings.Repeat("列\t", 100) + long
	sheet := append([]string{"見出し"}, extract.AppendLine(nil, row)...)
	sheet = append(sheet, "次の行\t末尾語")
	root, ix := buildCorpus(t, []corpusFile{
		{`資料\長い.txt`, []extract.Place{pl("本文", append(append([]string{"一行目"}, text...), "三行目 末尾語")...)}},
		{`資料\長い.xlsx`, []extract.Place{pl("売上", sheet...)}},
		{`資料\短い.docx`, []extract.Place{pl("ページ001", "短い段落の末尾語と"+pad(3000))}},
	})
	for _, tc := range []struct {
		word string
		want []string // path label row of each hit
	}{
		{"冒頭語", []string{`資料\長い.txt 2 行目 2`, `資料\長い.xlsx [シート]売上!CW2 2`}},
		{"境界語", []string{`資料\長い.txt 2 行目 2`, `資料\長い.xlsx [シート]売上 2 行目 2`}},
		{"中間語", []string{`資料\長い.txt 2 行目 2`, `資料\長い.xlsx [シート]売上 2 行目 2`}},
		{"末尾語", []string{`資料\短い.docx 1 ページ 1`, `資料\長い.txt 2 行目 2`, `資料\長い.txt 3 行目 3`, `資料\長い.xlsx [シート]売上 2 行目 2`, `資料\長い.xlsx [シート]売上!B3 3`}},
	} {
		for _, opt := range []search.Options{{}, {Case: true}, {Regex: true}, {Kana: true}} {
			t.Run(tc.word, func(t *testing.T) {
				hits, _, err := runQuery(t, root, ix, []string{tc.word}, opt)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, h := range hits {
					got = append(got, h.Path()+" "+h.Label+" "+itoa(h.Row))
					checkCut(t, h, tc.word)
					if b, _ := json.Marshal(h); len(b) > 4*search.HitLineMaxChars+1024 {
						t.Errorf("a hit of %d bytes of JSON", len(b))
					}
				}
				if strings.Join(got, "|") != strings.Join(tc.want, "|") {
					t.Errorf("%+v: hits\n got %q\nwant %q", opt, got, tc.want)
				}
			})
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
