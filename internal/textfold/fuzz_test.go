package textfold_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/textfold"
)

// FuzzFoldInvariants checks what search relies on, for any text: folding
// is idempotent; the line, and every whole word of it (between spaces
// that stay significant), is found in the folded line by its pattern;
// every found span maps back inside the line on rune boundaries; the
// needle of an exact search for any part of the line is in the folded
// line.
func FuzzFoldInvariants(f *testing.F) {
	for _, s := range []string{
		"見　積　書", "形式 N01", "サーバー構成 ユーザー", "髙橋 山﨑 渡邊", "霞ヶ関 霞ケ関 霞が関 一ヵ月 3カ月",
		"ｻｰﾊﾞｰ ｶﾞｽ", "cat dog", "葛\U000E0100飾 神\ufe00", "か ﾞ", "サーバーー ズ", "漢 ケ 関", "ABC　ＤＥＦ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, '\n') {
			return
		}
		folded := textfold.String(s)
		if again := textfold.String(folded); again != folded {
			t.Fatalf("String(%q) = %q, again %q", s, folded, again)
		}
		if strings.ContainsRune(folded, '\n') {
			t.Fatalf("String(%q) = %q holds LF", s, folded)
		}
		for _, w := range append(wholeWords(s), s) {
			if strings.TrimSpace(w) == "" {
				continue
			}
			re := patternRegexp(textfold.Pattern(w))
			ms := re.FindAllStringIndex(folded, -1)
			if len(ms) == 0 {
				t.Fatalf("word %q of %q: %s not in %q", w, s, re, folded)
			}
			spans := make([][2]int, len(ms))
			for i, m := range ms {
				spans[i] = [2]int{m[0], m[1]}
			}
			textfold.MapSpans([]byte(s), spans)
			for _, sp := range spans {
				if sp[0] < 0 || sp[0] > sp[1] || sp[1] > len(s) ||
					sp[0] < len(s) && !utf8.RuneStart(s[sp[0]]) || sp[1] < len(s) && !utf8.RuneStart(s[sp[1]]) {
					t.Fatalf("word %q of %q: span %v", w, s, sp)
				}
			}
		}
		var starts []int
		for i := range s {
			starts = append(starts, i)
		}
		starts = append(starts, len(s))
		for a := 0; a < len(starts); a += 1 + len(starts)/8 {
			for b := a; b < len(starts); b += 1 + len(starts)/8 {
				part := s[starts[a]:starts[b]]
				if n := textfold.CaseNeedle(part); !strings.Contains(folded, n) {
					t.Fatalf("CaseNeedle(%q) = %q, not in String(%q) = %q", part, n, s, folded)
				}
			}
		}
	})
}

// wholeWords splits s at the ASCII spaces that folding keeps (between two
// characters that are not Japanese).
func wholeWords(s string) []string {
	var words []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+1:])
		if before < 0x3000 && after < 0x3000 && before != utf8.RuneError && after != utf8.RuneError {
			words = append(words, s[start:i])
			start = i + 1
		}
	}
	return append(words, s[start:])
}
