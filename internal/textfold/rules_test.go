package textfold_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/textfold"
)

// TestRules folds each rule of issue 34 both ways.
func TestRules(t *testing.T) {
	tests := []struct{ in, want string }{
		// spaces next to Japanese
		{"見 積 書", "見積書"},
		{"見　積　書", "見積書"},
		{"御 見 積 書", "御見積書"},
		{"形式 N01", "形式n01"},
		{"N01 形式", "n01形式"},
		{"形式\u00a0\u2009N01", "形式n01"},
		{"cat dog", "cat dog"},
		{"cat\u3000dog", "cat dog"},
		{"です。 次", "です。次"},
		{"品名\t数量", "品名\t数量"}, // tabs separate cells
		{" 見積 ", "見積"},
		{"서울 시", "서울 시"}, // Hangul keeps its spaces
		// long vowels that end a katakana word of three or more
		{"サーバー", "サーバ"},
		{"サーバー構成", "サーバ構成"},
		{"ユーザー管理", "ユーザ管理"},
		{"コンピューター", "コンピュータ"},
		{"ｻｰﾊﾞｰ", "サーバ"},
		{"サーバーー", "サーバ"},
		{"サーバーズ", "サーバーズ"},
		{"コピー", "コピー"},
		{"ビール", "ビール"},
		{"サ ー バ ー", "サーバ"},
		// variant kanji and selectors
		{"髙橋", "高橋"},
		{"山﨑", "山崎"},
		{"山嵜", "山崎"},
		{"渡邊", "渡辺"},
		{"渡邉", "渡辺"},
		{"齋藤", "斎藤"},
		{"齊藤", "斉藤"},
		{"澤 濱 國 櫻 德 廣 眞 惠", "沢浜国桜徳広真恵"},
		{"𠮷野", "吉野"},
		{"葛\U000E0100飾", "葛飾"},
		{"神\ufe00社", "神社"},
		{"神", "神"}, // U+FA19
		// ヶ ヵ ケ
		{"霞ヶ関", "霞ヶ関"},
		{"霞ケ関", "霞ヶ関"},
		{"一ヵ月", "一ヶ月"},
		{"3カ月", "3ヶ月"},
		{"３ヶ月", "3ヶ月"},
		{"霞が関", "霞が関"},
		{"ケーキ", "ケーキ"},
		{"東京カメラ", "東京カメラ"},
		{"彼が来た", "彼が来た"},
	}
	for _, tt := range tests {
		if got := textfold.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := textfold.String(tt.want); got != tt.want {
			t.Errorf("String(%q) = %q: not idempotent", tt.want, got)
		}
	}
}

// TestFinds runs query words against lines as search does: the word's
// pattern (Pattern) in the folded line.
func TestFinds(t *testing.T) {
	tests := []struct {
		word, line string
		want       bool
	}{
		{"形式N01", "形式 N01", true},
		{"見積書", "見　積　書", true},
		{"見積書", "御 見 積 書", true},
		{"サーバ構成", "サーバー構成", true},
		{"サーバー構成", "サーバ構成", true},
		{"コンピューター", "コンピュータ", true},
		{"ユーザ管理", "ユーザー管理", true},
		{"高橋", "髙橋", true},
		{"髙橋", "高橋", true},
		{"山崎", "山﨑", true},
		{"渡辺", "渡邊", true},
		{"斎藤", "齋藤", true},
		{"霞が関", "霞ヶ関", true},
		{"霞ケ関", "霞ヶ関", true},
		{"霞ヶ関", "霞が関", true},
		{"一か月", "一ヶ月", true},
		{"一ヶ月", "一ヵ月", true},
		{"霞ケ", "霞ケ関", true},
		{"が", "彼が来た", true},
		{"が", "霞ヶ関", false},
		{"ビル", "ビール", false},
		{"ビール", "ビル", false},
		{"catdog", "cat dog", false},
		{"cat dog", "catdog", false},
		{"斎藤", "斉藤", false},
	}
	for _, tt := range tests {
		re := patternRegexp(textfold.Pattern(tt.word))
		if got := re.MatchString(textfold.String(tt.line)); got != tt.want {
			t.Errorf("%q in %q: %v, want %v (pattern %s, line %q)", tt.word, tt.line, got, tt.want, re, textfold.String(tt.line))
		}
	}
}

// patternRegexp is the regular expression of a word's pieces, as search
// builds it.
func patternRegexp(ps []textfold.Piece) *regexp.Regexp {
	return regexp.MustCompile(textfold.Regexp(ps, false))
}

func TestMapSpans(t *testing.T) {
	tests := []struct {
		line, word, want string
	}{
		{"御見　積　書です", "見積書", "見　積　書"},
		{"サーバー構成", "サーバ", "サーバー"},
		{"見積 書", "見積", "見積"},
		{"形式 N01", "形式n01", "形式 N01"},
		{"髙橋様", "高橋", "髙橋"},
		{"葛\U000E0100飾区", "葛飾", "葛\U000E0100飾"},
		{"ＡＢＣ", "b", "Ｂ"},
	}
	for _, tt := range tests {
		folded := textfold.String(tt.line)
		i := strings.Index(folded, textfold.String(tt.word))
		if i < 0 {
			t.Fatalf("%q not in %q", tt.word, folded)
		}
		spans := [][2]int{{i, i + len(textfold.String(tt.word))}}
		textfold.MapSpans([]byte(tt.line), spans)
		if got := tt.line[spans[0][0]:spans[0][1]]; got != tt.want {
			t.Errorf("MapSpans(%q, %q) = %q, want %q", tt.line, tt.word, got, tt.want)
		}
	}
}

func TestCaseNeedleRules(t *testing.T) {
	tests := []struct{ s, line string }{
		{"バー", "サーバー"},
		{"バー構成", "サーバー構成"},
		{"霞ケ", "霞ケ関"},
		{"ケ関", "霞ケ関"},
		{"見 ", "見 積"},
		{" 積", "見 積"},
		{"ｶﾞｽ料金", "ｶﾞｽ料金"},
	}
	for _, tt := range tests {
		n := textfold.CaseNeedle(tt.s)
		if !strings.Contains(textfold.String(tt.line), n) {
			t.Errorf("CaseNeedle(%q) = %q, not in String(%q) = %q", tt.s, n, tt.line, textfold.String(tt.line))
		}
	}
}

// TestLongVowelRuns folds runs of long-vowel marks, short and long: the
// rule's answer for a run is the same for each of its marks, and a line
// of n marks folds in time linear in n (the run is walked once, issue 35:
// BenchmarkLongVowelRun).
func TestLongVowelRuns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"サーバー", "サーバ"},
		{"サーバーー", "サーバ"},
		{"サーバーーーカ", "サーバーーーカ"},
		{"サーバーーー漢", "サーバ漢"},
		{"サーバーｰーｰ", "サーバ"},
		{"ーーーー", "ーーー"},
		{"ｰｰｰｰｰ", "ーーー"},
		{"カーー", "カーー"},
		{"カーーー", "カーー"},
		{"アイウーー", "アイウ"},
		{"アイウーーイ", "アイウーーイ"},
		{"アイウーー゛", "アイウ゛"},
		{"アイウーー\u3000カ", "アイウーーカ"},
		{"アイウーー\u3000漢", "アイウ漢"},
		{"データーベース", "データーベース"},
		{"ユーザー様", "ユーザ様"},
		{"コーヒーーーー", "コーヒ"},
		{"ーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーー", "ーーー"},
		{"コンピューターーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーーとーーーーーーー", "コンピュータとーーー"},
		{strings.Repeat("ー", 50), strings.Repeat("ー", 3)},
		{"コンピュータ" + strings.Repeat("ー", 40) + "と" + strings.Repeat("ー", 7), "コンピュータとーーー"},
		{"サーバ" + strings.Repeat("ー", 16000), "サーバ"},
		{"サーバ" + strings.Repeat("ー", 16000) + "カ", "サーバ" + strings.Repeat("ー", 16000) + "カ"},
		{strings.Repeat("カー", 8000) + "漢", strings.Repeat("カー", 7999) + "カ漢"},
	}
	for _, tt := range tests {
		if got := textfold.String(tt.in); got != tt.want {
			t.Errorf("String(%.30q…) = %.30q…, want %.30q…", tt.in, got, tt.want)
		}
		var sc textfold.Scanner
		sc.Reset([]byte(tt.in))
		var units []byte
		for sc.Scan() {
			units = append(units, sc.Folded()...)
		}
		if string(units) != tt.want {
			t.Errorf("units of %.30q… = %.30q…, want %.30q…", tt.in, units, tt.want)
		}
	}
}

// BenchmarkLongVowelRun folds lines that are one run of long-vowel marks
// after a katakana word: the cost per mark stays flat from 1,000 to
// 16,384 marks (it grew with the run before the run's end was kept).
func BenchmarkLongVowelRun(b *testing.B) {
	for _, n := range []int{1000, 16384} {
		line := []byte("サーバ" + strings.Repeat("ー", n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			var dst []byte
			for b.Loop() {
				dst = textfold.Append(dst[:0], line)
			}
		})
	}
}
