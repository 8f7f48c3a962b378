package search_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// The expected hits of the known corpus, in search order. Hits render as
// `path|label|kind|row|text|matches` (→ TAB, ↵ U+2028).
var (
	hOld      = `営業\old_見積.xlsx|[シート]Sheet1!A1|セル|1|りんご→旧|りんご`
	hRep1     = `営業\報告.docx|1 ページ|本文|1|りんごの出荷が増えた|りんご`
	hRepGas   = `営業\報告.docx|1 ページ|本文|2|ｶﾞｽ料金の件|ｶﾞｽ`
	hRepShape = `営業\報告.docx|2 ページ|図形|1|りんご箱の図|りんご`
	hMitsu3   = `営業\見積.xlsx|[シート]売上!A3|セル|3|りんご→10→100|りんご`
	hShape    = `営業\見積.xlsx|[シート]売上!F2|図形|2|F2→納期はりんご次第|りんご`
	hComment  = `営業\見積.xlsx|[シート]売上!D5|コメント|5|D5→"山田:↵りんご確認"|りんご`
	hHeader   = `営業\見積.xlsx|[シート]売上|ヘッダー・フッター|1|社外秘 りんご|りんご`
	hMemo1    = `営業\2024\メモ.txt|1 行目|本文|1|りんご 10 箱|りんご`
	hPptCmt   = `営業\2024\発表.pptx|スライド 1|コメント|1|コメントりんご|りんご`
	hPptNote  = `営業\2024\発表.pptx|スライド 1|ノート|1|ノートのりんご|りんご`
	hPptHid   = `営業\2024\発表.pptx|スライド 2（非表示）|本文|1|非表示のりんご|りんご`
	hBill     = `経理\請求.xlsx|[シート]請求!B1|セル|1|請求先→りんご商店|りんご`
)

var allRingo = []string{hOld, hRep1, hRepShape, hMitsu3, hShape, hComment, hHeader, hMemo1, hPptCmt, hPptNote, hPptHid, hBill}

func without(list []string, drop ...string) []string {
	var out []string
	for _, h := range list {
		keep := true
		for _, d := range drop {
			if h == d {
				keep = false
			}
		}
		if keep {
			out = append(out, h)
		}
	}
	return out
}

func TestQueries(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	tests := []struct {
		name  string
		words []string
		opts  search.Options
		want  []string
	}{
		{"literal", []string{"りんご"}, search.Options{}, allRingo},
		{"kana", []string{"リンゴ"}, search.Options{Kana: true}, append(append(append([]string{}, allRingo[:8]...),
			`営業\2024\発表.pptx|スライド 1|本文|1|リンゴ新商品|リンゴ`), allRingo[8:]...)},
		{"katakana without kana", []string{"リンゴ"}, search.Options{}, []string{`営業\2024\発表.pptx|スライド 1|本文|1|リンゴ新商品|リンゴ`}},
		{"width and case", []string{"apple"}, search.Options{}, []string{
			`営業\見積.xlsx|[シート]売上!A4|セル|4|ＡＰＰＬＥ→５→200|ＡＰＰＬＥ`,
			`営業\2024\メモ.txt|3 行目|本文|3|Apple pie|Apple`,
			`営業\2024\メモ.txt|4 行目|本文|4|ａｐｐｌｅ|ａｐｐｌｅ`}},
		{"full-width query", []string{"ＡＰＰＬＥ"}, search.Options{}, []string{
			`営業\見積.xlsx|[シート]売上!A4|セル|4|ＡＰＰＬＥ→５→200|ＡＰＰＬＥ`,
			`営業\2024\メモ.txt|3 行目|本文|3|Apple pie|Apple`,
			`営業\2024\メモ.txt|4 行目|本文|4|ａｐｐｌｅ|ａｐｐｌｅ`}},
		{"case", []string{"Apple"}, search.Options{Case: true}, []string{`営業\2024\メモ.txt|3 行目|本文|3|Apple pie|Apple`}},
		{"case full-width", []string{"ａｐｐｌｅ"}, search.Options{Case: true}, []string{`営業\2024\メモ.txt|4 行目|本文|4|ａｐｐｌｅ|ａｐｐｌｅ`}},
		{"half-width katakana", []string{"ガス"}, search.Options{}, []string{hRepGas}},
		{"half-width query", []string{"ｶﾞｽ料金"}, search.Options{}, []string{`営業\報告.docx|1 ページ|本文|2|ｶﾞｽ料金の件|ｶﾞｽ料金`}},
		{"and", []string{"りんご", "社外秘"}, search.Options{}, []string{`営業\見積.xlsx|[シート]売上|ヘッダー・フッター|1|社外秘 りんご|社外秘,りんご`}},
		{"not", []string{"りんご", "-社外秘"}, search.Options{}, without(allRingo, hHeader)},
		{"escaped dash", []string{`\-`}, search.Options{}, nil},
		{"shape after cell only", []string{"F2"}, search.Options{}, nil},
		{"shape without cell", []string{"住所"}, search.Options{}, []string{`営業\見積.xlsx|[シート]売上|図形|2|→住所なし|住所`}},
		{"more cells", []string{"1"}, search.Options{}, []string{
			`営業\見積.xlsx|[シート]売上!B3 ほか 1|セル|3|りんご→10→100|1,1`,
			`営業\見積.xlsx|[シート]売上!A5|セル|5|"1行目↵2行目"→みかん|1`,
			`営業\2024\メモ.txt|1 行目|本文|1|りんご 10 箱|1`}},
		{"column unknown", []string{"10\t100"}, search.Options{}, []string{`営業\見積.xlsx|[シート]売上 3 行目|セル|3|りんご→10→100|10→100`}},
		{"regex dot over LS", []string{"1行目.2行目"}, search.Options{Regex: true}, []string{`営業\見積.xlsx|[シート]売上!A5|セル|5|"1行目↵2行目"→みかん|1行目↵2行目`}},
		{"regex \\s over LS", []string{`1行目\s2行目`}, search.Options{Regex: true}, []string{`営業\見積.xlsx|[シート]売上!A5|セル|5|"1行目↵2行目"→みかん|1行目↵2行目`}},
		{"regex anchor", []string{"^りんご"}, search.Options{Regex: true}, []string{hOld, hRep1, hRepShape, hMitsu3, hMemo1}},
		{"regex class folds", []string{"app[a-z]e"}, search.Options{Regex: true}, []string{
			`営業\見積.xlsx|[シート]売上!A4|セル|4|ＡＰＰＬＥ→５→200|ＡＰＰＬＥ`,
			`営業\2024\メモ.txt|3 行目|本文|3|Apple pie|Apple`,
			`営業\2024\メモ.txt|4 行目|本文|4|ａｐｐｌｅ|ａｐｐｌｅ`}},
		{"regex negated class", []string{"^[^a-z]pple"}, search.Options{Regex: true}, nil},
		{"regex case", []string{"[A-Z]pple"}, search.Options{Regex: true, Case: true}, []string{`営業\2024\メモ.txt|3 行目|本文|3|Apple pie|Apple`}},
		{"regex no literal", []string{`\d{3}$`}, search.Options{Regex: true}, []string{
			`営業\見積.xlsx|[シート]売上!C3|セル|3|りんご→10→100|100`,
			`営業\見積.xlsx|[シート]売上!C4|セル|4|ＡＰＰＬＥ→５→200|200`}},
		{"regex empty line", []string{"^$"}, search.Options{Regex: true}, []string{
			`営業\見積.xlsx|[シート]売上 1 行目|セル|1||`,
			`営業\2024\メモ.txt|2 行目|本文|2||`}},
		{"regex alternation", []string{"出荷|商店"}, search.Options{Regex: true}, []string{
			`営業\報告.docx|1 ページ|本文|1|りんごの出荷が増えた|出荷`,
			`経理\請求.xlsx|[シート]請求!B1|セル|1|請求先→りんご商店|商店`}},
		{"regex kana", []string{"リンゴ新"}, search.Options{Regex: true, Kana: true}, []string{`営業\2024\発表.pptx|スライド 1|本文|1|リンゴ新商品|リンゴ新`}},
		{"kind", []string{"りんご"}, search.Options{Kinds: []string{"word"}}, []string{hRep1, hRepShape}},
		{"kinds", []string{"りんご"}, search.Options{Kinds: []string{"powerpoint,text"}}, []string{hMemo1, hPptCmt, hPptNote, hPptHid}},
		{"names", []string{"りんご"}, search.Options{Names: "*.xlsx;!old*"}, []string{hMitsu3, hShape, hComment, hHeader, hBill}},
		{"names substring", []string{"りんご"}, search.Options{Names: "見積"}, []string{hOld, hMitsu3, hShape, hComment, hHeader}},
		{"names full-width", []string{"りんご"}, search.Options{Names: "＊．ｘｌｓｘ；！ＯＬＤ＊"}, []string{hMitsu3, hShape, hComment, hHeader, hBill}},
		{"folder", []string{"りんご"}, search.Options{Folder: `営業/2024`}, []string{hMemo1, hPptCmt, hPptNote, hPptHid}},
		{"folder file", []string{"りんご"}, search.Options{Folder: `営業\報告.docx`}, []string{hRep1, hRepShape}},
		{"index", []string{"りんご"}, search.Options{Indexes: []string{"経理"}}, []string{hBill}},
		{"no shapes", []string{"りんご"}, search.Options{NoShapes: true}, without(allRingo, hShape, hRepShape)},
		{"no comments", []string{"りんご"}, search.Options{NoComments: true}, without(allRingo, hComment, hPptCmt)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, st, err := runQuery(t, root, ix, tt.words, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, hitString(h))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Run(%q) =\n  %s\nwant\n  %s", tt.words, strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if st.Truncated || len(st.Problems) > 0 || st.Hits != len(hits) {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

func TestCap(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	for _, max := range []int{1, 3, 11, 12, 13} {
		hits, st, err := runQuery(t, root, ix, []string{"りんご"}, search.Options{Max: max})
		if err != nil {
			t.Fatal(err)
		}
		n := min(max, len(allRingo))
		if len(hits) != n || st.Truncated != (max < len(allRingo)) {
			t.Fatalf("Max %d: %d hits, truncated %v", max, len(hits), st.Truncated)
		}
		for i, h := range hits {
			if hitString(h) != allRingo[i] {
				t.Fatalf("Max %d: hit %d = %s", max, i, hitString(h))
			}
		}
		if st.Truncated && st.CutAt != hits[n-1].Path() {
			t.Fatalf("CutAt = %q", st.CutAt)
		}
	}
	hits, st, _ := runQuery(t, root, ix, []string{"りんご"}, search.Options{Max: -1})
	if len(hits) != len(allRingo) || st.Truncated {
		t.Fatalf("no cap: %d hits", len(hits))
	}
}

func TestQueryErrors(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		opts  search.Options
		msg   string
		word  int
		pos   int
	}{
		{"empty", nil, search.Options{}, search.MsgEmptyQuery, -1, -1},
		{"spaces", []string{" ", "\u3000"}, search.Options{}, search.MsgEmptyQuery, -1, -1},
		{"only excluded", []string{"-a"}, search.Options{}, search.MsgOnlyExcluded, -1, -1},
		{"paren", []string{"ok", "(りんご"}, search.Options{Regex: true}, "正規表現として不正です（2 番目のワード「(りんご」の終わり: 閉じかっこ ) が足りません）。", 1, 4},
		{"repeat", []string{"a**"}, search.Options{Regex: true}, "正規表現として不正です（1 番目のワード「a**」の 2 文字目「**」: 繰り返しの指定が不正です）。", 0, 1},
		{"lookahead", []string{"a(?=b)"}, search.Options{Regex: true}, "正規表現として不正です（1 番目のワード「a(?=b)」の 2 文字目「(?=」: (? の使い方が不正です（先読み・後読み・後方参照は使えません））。", 0, 1},
		{"kind", []string{"a"}, search.Options{Kinds: []string{"jpg"}}, "種類「jpg」はありません（excel・word・powerpoint・pdf・text・image から選んでください）。", -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := search.Parse(tt.words, tt.opts)
			var qe *search.QueryError
			if !errors.As(err, &qe) {
				t.Fatalf("Parse = %v, want QueryError", err)
			}
			if qe.Msg != tt.msg || qe.Word != tt.word || qe.Pos != tt.pos {
				t.Fatalf("Parse = %q (word %d, pos %d), want %q (word %d, pos %d)", qe.Msg, qe.Word, qe.Pos, tt.msg, tt.word, tt.pos)
			}
		})
	}
	root, ix := buildCorpus(t, knownCorpus)
	_, _, err := runQuery(t, root, ix, []string{"a"}, search.Options{Indexes: []string{"総務"}})
	var qe *search.QueryError
	if !errors.As(err, &qe) || qe.Msg != "インデックス「総務」はありません。" {
		t.Fatalf("unknown index: %v", err)
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"見積\u3000確定  -下書き", []string{"見積", "確定", "-下書き"}},
		{`"株式会社 山田" 請求`, []string{"株式会社 山田", "請求"}},
		{`"-1" x`, []string{`\-1`, "x"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := search.SplitWords(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
