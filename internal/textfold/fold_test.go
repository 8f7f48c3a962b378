package textfold_test

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/textfold"
	"golang.org/x/text/width"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ABC abc", "abc abc"},
		{"ＡＢＣ１２３＄", "abc123$"},
		{"ｶﾀｶﾅ｡｢ｰ｣", "カタカナ。「ー」"},
		{"ｶﾞｷﾞﾊﾟｳﾞ", "ガギパヴ"},
		{"か\u3099は\u309A", "がぱ"}, // NFD kana
		{"ﾞ", "\u3099"},          // a lone mark stays a (combining) mark
		{"株式会社\u3000山田", "株式会社山田"},
		{"Σς K ſ", "σσ k s"},
		{"\xff\xfeA", "\xff\xfea"}, // invalid bytes kept
		{"1行目\u20282行目\t", "1行目\u20282行目\t"},
	}
	for _, tt := range tests {
		if got := textfold.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFoldRuneAll checks every rune against width.Fold, simple case
// folding and the variant table, the definition in rune.go.
func TestFoldRuneAll(t *testing.T) {
	variantOf := map[rune]rune{}
	for _, p := range textfold.VariantPairs {
		variantOf[p[0]] = p[1]
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		want := r
		if f := width.LookupRune(r).Folded(); f != 0 {
			want = f
		}
		want = unicode.ToLower(unicode.ToUpper(want))
		if v, ok := variantOf[want]; ok {
			want = v
		}
		if want == 'ヵ' {
			want = 'ヶ'
		}
		if got := textfold.Rune(r); got != want {
			t.Fatalf("FoldRune(%U) = %U, want %U", r, got, want)
		}
		if got := textfold.Rune(r); got == '\n' && r != '\n' {
			t.Fatalf("FoldRune(%U) is LF", r)
		}
	}
}

// TestMapAndMapSpans checks that Map and MapSpans agree on where each
// folded rune's source starts.
func TestMapAndMapSpans(t *testing.T) {
	for _, s := range []string{"ＡＢＣｶﾞｽ abc", "Apple ＡＰＰＬＥ", "か\u3099x", "\xffA\xfeＢ", "", "日本語だけ"} {
		folded, starts := textfold.Map(s)
		if folded != textfold.String(s) || len(starts) != len(folded)+1 {
			t.Fatalf("Map(%q) = %q, %d starts", s, folded, len(starts))
		}
		var spans [][2]int
		for i := 0; i < len(folded); {
			_, n := utf8.DecodeRuneInString(folded[i:])
			spans = append(spans, [2]int{i, i + n})
			i += n
		}
		want := make([]int, len(spans))
		for i, sp := range spans {
			want[i] = starts[sp[0]]
		}
		textfold.MapSpans([]byte(s), spans)
		for i := range spans {
			if spans[i][0] != want[i] {
				t.Fatalf("MapSpans(%q)[%d] starts at %d, want %d", s, i, spans[i][0], want[i])
			}
		}
	}
}

func TestKana(t *testing.T) {
	if got := textfold.Kana("カタカナ・ヴ ヽ ひらがな ｶ"); got != "かたかな・ゔ ゝ ひらがな ｶ" {
		t.Fatalf("Kana = %q", got)
	}
}

func TestCaseNeedle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ｶ", ""},
		{"xｶ", "x"},
		{"ﾞx", "x"},
		{"ｶﾞｽ", "ガ"}, // ｽ may be followed by ﾞ in the line (ｽﾞ → ズ)
		{"ｶﾞｽ料金", "ガス料金"},
		{"Apple", "apple"},
	}
	for _, tt := range tests {
		if got := textfold.CaseNeedle(tt.in); got != tt.want {
			t.Errorf("CaseNeedle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
