package search_test

import (
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// recallCorpus spells each word of issue 34 a little differently.
var recallCorpus = []corpusFile{
	{`総務\名簿.xlsx`, []extract.Place{pl("名簿", "髙橋\t山﨑", "渡邊\t齋藤", "澤田\t濱口", "國分\t櫻井", "德永\t廣瀬", "眞鍋\t惠子", "齊藤\t山嵜", "𠮷野\t渡邉")}},
	{`総務\案内.docx`, []extract.Place{pl("ページ001", "御 見 積 書", "形式 N01", "サーバー構成", "ユーザー管理", "コンピュータ", "霞ヶ関", "一ヵ月", "3カ月", "彼が来た", "ビール", "cat dog", "葛\U000E0100飾区")}},
}

// TestRecallRules runs every folding rule of issue 34 through the search
// API over a real index, both ways where there are two, and what must not
// match: the hits, the text shown (the document's own) and the span
// highlighted.
func TestRecallRules(t *testing.T) {
	root, ix := buildCorpus(t, recallCorpus)
	const (
		meibo = `総務\名簿.xlsx|[シート]名簿!`
		annai = `総務\案内.docx|1 ページ|本文|`
	)
	tests := []struct {
		words []string
		opts  search.Options
		want  []string
	}{
		{[]string{"見積書"}, search.Options{}, []string{annai + "1|御 見 積 書|見 積 書"}},
		{[]string{"形式N01"}, search.Options{}, []string{annai + "2|形式 N01|形式 N01"}},
		{[]string{"形式 N01"}, search.Options{}, []string{annai + "2|形式 N01|形式 N01"}},
		{[]string{"サーバ構成"}, search.Options{}, []string{annai + "3|サーバー構成|サーバー構成"}},
		{[]string{"サーバ"}, search.Options{}, []string{annai + "3|サーバー構成|サーバー"}},
		{[]string{"ユーザ管理"}, search.Options{}, []string{annai + "4|ユーザー管理|ユーザー管理"}},
		{[]string{"コンピューター"}, search.Options{}, []string{annai + "5|コンピュータ|コンピュータ"}},
		{[]string{"高橋"}, search.Options{}, []string{meibo + "A1|セル|1|髙橋→山﨑|髙橋"}},
		{[]string{"山崎"}, search.Options{}, []string{meibo + "B1|セル|1|髙橋→山﨑|山﨑", meibo + "B7|セル|7|齊藤→山嵜|山嵜"}},
		{[]string{"渡辺"}, search.Options{}, []string{meibo + "A2|セル|2|渡邊→齋藤|渡邊", meibo + "B8|セル|8|𠮷野→渡邉|渡邉"}},
		{[]string{"斎藤"}, search.Options{}, []string{meibo + "B2|セル|2|渡邊→齋藤|齋藤"}},
		{[]string{"斉藤"}, search.Options{}, []string{meibo + "A7|セル|7|齊藤→山嵜|齊藤"}},
		{[]string{"沢田"}, search.Options{}, []string{meibo + "A3|セル|3|澤田→濱口|澤田"}},
		{[]string{"浜口"}, search.Options{}, []string{meibo + "B3|セル|3|澤田→濱口|濱口"}},
		{[]string{"国分"}, search.Options{}, []string{meibo + "A4|セル|4|國分→櫻井|國分"}},
		{[]string{"桜井"}, search.Options{}, []string{meibo + "B4|セル|4|國分→櫻井|櫻井"}},
		{[]string{"徳永"}, search.Options{}, []string{meibo + "A5|セル|5|德永→廣瀬|德永"}},
		{[]string{"広瀬"}, search.Options{}, []string{meibo + "B5|セル|5|德永→廣瀬|廣瀬"}},
		{[]string{"真鍋"}, search.Options{}, []string{meibo + "A6|セル|6|眞鍋→惠子|眞鍋"}},
		{[]string{"恵子"}, search.Options{}, []string{meibo + "B6|セル|6|眞鍋→惠子|惠子"}},
		{[]string{"吉野"}, search.Options{}, []string{meibo + "A8|セル|8|𠮷野→渡邉|𠮷野"}},
		{[]string{"葛飾"}, search.Options{}, []string{annai + "12|葛\U000E0100飾区|葛\U000E0100飾"}},
		{[]string{"霞が関"}, search.Options{}, []string{annai + "6|霞ヶ関|霞ヶ関"}},
		{[]string{"霞ケ関"}, search.Options{}, []string{annai + "6|霞ヶ関|霞ヶ関"}},
		{[]string{"一ヶ月"}, search.Options{}, []string{annai + "7|一ヵ月|一ヵ月"}},
		{[]string{"一か月"}, search.Options{}, []string{annai + "7|一ヵ月|一ヵ月"}},
		{[]string{"3か月"}, search.Options{}, []string{annai + "8|3カ月|3カ月"}},
		{[]string{"が"}, search.Options{}, []string{annai + "9|彼が来た|が"}},
		{[]string{"霞が関"}, search.Options{Kana: true}, []string{annai + "6|霞ヶ関|霞ヶ関"}},
		// what must not match
		{[]string{"ビル"}, search.Options{}, nil},
		{[]string{"ビール"}, search.Options{}, []string{annai + "10|ビール|ビール"}},
		{[]string{"catdog"}, search.Options{}, nil},
		{[]string{`"cat dog"`}, search.Options{}, nil},
		{[]string{"cat dog"}, search.Options{}, []string{annai + "11|cat dog|cat dog"}},
		{[]string{"斉藤"}, search.Options{Case: true}, nil},
		{[]string{"高橋"}, search.Options{Case: true}, nil},
		{[]string{"髙橋"}, search.Options{Case: true}, []string{meibo + "A1|セル|1|髙橋→山﨑|髙橋"}},
		{[]string{"見積書"}, search.Options{Case: true}, nil},
		{[]string{"サーバ"}, search.Options{Case: true}, []string{annai + "3|サーバー構成|サーバ"}},
		{[]string{"霞が関"}, search.Options{Case: true}, nil},
		{[]string{"ヶ"}, search.Options{Case: true}, []string{annai + "6|霞ヶ関|ヶ"}},
		{[]string{"サーバー"}, search.Options{Regex: true}, []string{annai + "3|サーバー構成|サーバー"}},
	}
	for _, tt := range tests {
		hits, _, err := runQuery(t, root, ix, tt.words, search.Options{NoNames: true, Case: tt.opts.Case, Kana: tt.opts.Kana, Regex: tt.opts.Regex})
		if err != nil {
			t.Fatalf("%q %+v: %v", tt.words, tt.opts, err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, hitString(h))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q %+v:\n got %q\nwant %q", tt.words, tt.opts, got, tt.want)
		}
	}
}
