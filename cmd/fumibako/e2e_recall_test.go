package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecall runs the table of issue 34 through `fumibako search`: each
// word finds the line that spells it a little differently, with the
// document's own text shown and the whole matched span highlighted; the
// LibreOffice PDF whose text layer has a space where the font changes
// (lo-fontsplit.pdf: `形式 N01`, `御 見 積 書`) is found by the unspaced
// word at its page; what must not match does not; --case tells the
// spellings apart.
func TestRecall(t *testing.T) {
	f := newFixture(t)
	f.write("memo.txt", strings.Join([]string{
		"形式 N01", "見　積　書", "サーバー構成", "コンピュータ", "ユーザー管理",
		"髙橋 山﨑 渡邊 齋藤", "霞ヶ関", "一ヶ月", "彼が来た", "ビール", "cat dog",
	}, "\n")+"\n")
	pdf, err := os.ReadFile(filepath.Join("..", "..", "internal", "extract", "pdf", "testdata", "lo-fontsplit.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	f.write("図面/部品.pdf", string(pdf))
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")

	type hit struct{ label, text, match string }
	tests := []struct {
		args []string
		want []hit // in order; nil: nothing found
	}{
		{[]string{"形式N01"}, []hit{{"1 行目", "形式 N01", "形式 N01"}, {"1 ページ", "部品は形式 N01 を使います。", "形式 N01"}}},
		{[]string{"見積書"}, []hit{{"2 行目", "見　積　書", "見　積　書"}, {"1 ページ", "御 見 積 書", "見 積 書"}}},
		{[]string{"サーバ構成"}, []hit{{"3 行目", "サーバー構成", "サーバー構成"}, {"1 ページ", "担当：髙橋（サーバー構成）", "サーバー構成"}}},
		{[]string{"コンピューター"}, []hit{{"4 行目", "コンピュータ", "コンピュータ"}}},
		{[]string{"ユーザ管理"}, []hit{{"5 行目", "ユーザー管理", "ユーザー管理"}}},
		{[]string{"高橋"}, []hit{{"6 行目", "髙橋 山﨑 渡邊 齋藤", "髙橋"}, {"1 ページ", "担当：髙橋（サーバー構成）", "髙橋"}}},
		{[]string{"山崎"}, []hit{{"6 行目", "髙橋 山﨑 渡邊 齋藤", "山﨑"}}},
		{[]string{"渡辺"}, []hit{{"6 行目", "髙橋 山﨑 渡邊 齋藤", "渡邊"}}},
		{[]string{"斎藤"}, []hit{{"6 行目", "髙橋 山﨑 渡邊 齋藤", "齋藤"}}},
		{[]string{"霞が関"}, []hit{{"7 行目", "霞ヶ関", "霞ヶ関"}}},
		{[]string{"霞ケ関"}, []hit{{"7 行目", "霞ヶ関", "霞ヶ関"}}},
		{[]string{"一か月"}, []hit{{"8 行目", "一ヶ月", "一ヶ月"}}},
		{[]string{"が"}, []hit{{"9 行目", "彼が来た", "が"}}},
		{[]string{"ビル"}, nil},
		{[]string{"catdog"}, nil},
		{[]string{"高橋", "--case"}, nil},
		{[]string{"髙橋", "--case"}, []hit{{"6 行目", "髙橋 山﨑 渡邊 齋藤", "髙橋"}, {"1 ページ", "担当：髙橋（サーバー構成）", "髙橋"}}},
		{[]string{"霞が関", "--case"}, nil},
	}
	for _, tt := range tests {
		out, _, code := f.run(append([]string{"search", "--json", "--no-names"}, tt.args...)...)
		var got []hit
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, "{") {
				continue
			}
			var h struct {
				Label   string   `json:"label"`
				Text    string   `json:"text"`
				Matches [][2]int `json:"matches"`
			}
			if err := json.Unmarshal([]byte(line), &h); err != nil {
				t.Fatalf("%v: %v: %s", tt.args, err, line)
			}
			if len(h.Matches) != 1 {
				t.Fatalf("%v: %q has matches %v, want one", tt.args, h.Text, h.Matches)
			}
			got = append(got, hit{h.Label, h.Text, h.Text[h.Matches[0][0]:h.Matches[0][1]]})
		}
		if tt.want == nil && code != 1 || tt.want != nil && code != 0 {
			t.Errorf("%v: exit %d", tt.args, code)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("search %v:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}
