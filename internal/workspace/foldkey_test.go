package workspace_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestFoldKey checks that FoldKey is strings.ToUpper: on every rune alone
// and between Japanese text, on paths, and on invalid UTF-8.
func TestFoldKey(t *testing.T) {
	inputs := []string{"", "scale\\営業部\\報告.txt", "SCALE\\営業部\\報告.TXT", "ａｂｃ漢字", "Straße", "ǅ", "ß", "ﬃ",
		"営業\xff部", "\xe3\x81", "かな\xe3\x81\x81", "カタカナ・ひらがな〜ー", "①ⓐ㋐", "𠮷野家", strings.Repeat("東京", 200) + "x"}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		s := string(r)
		if got, want := workspace.FoldKey(s), strings.ToUpper(s); got != want {
			t.Fatalf("FoldKey(%U) = %q, want %q", r, got, want)
		}
		if r%97 == 0 {
			inputs = append(inputs, "営業"+s+"部")
		}
	}
	for _, s := range inputs {
		if got, want := workspace.FoldKey(s), strings.ToUpper(s); got != want {
			t.Errorf("FoldKey(%q) = %q, want %q", s, got, want)
		}
	}
}
