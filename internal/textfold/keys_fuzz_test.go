package textfold_test

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/textfold"
)

// FuzzAppendKeys compares AppendKeys, which writes every key without a
// branch on whether it exists (putKeys, issue 35), with the rule it
// implements, rune by rune: each rune, each pair and each run of three
// ASCII runes after katakana = hiragana folding, invalid bytes one U+FFFD
// each, appended after the keys already in the slice.
func FuzzAppendKeys(f *testing.F) {
	for _, s := range []string{
		"", "a", "ab", "abc", "東京都の会議", "カタカナとひらがな ヽヾ", "abc ABC 見積書 2024年", "\xe3\x81", "\xe3\x81\x82\xff",
		"\xe4\xb8", "\xed\xa0\x80", "\x00\x00a", "ヴ ヵ ヶ ゔ", "𠮷野家", "\u3000、。", "a\u00e9b",
	} {
		f.Add([]byte(s), uint8(len(s)%4))
	}
	f.Fuzz(func(t *testing.T, line []byte, prefix uint8) {
		var before []uint32
		for i := range int(prefix % 8) {
			before = append(before, uint32(i)*0x9E3779B9)
		}
		want := slices.Clone(before)
		var p2, p1 rune = -1, -1
		for i := 0; i < len(line); {
			r, n := utf8.DecodeRune(line[i:])
			i += n
			r = textfold.KanaRune(r)
			want = append(want, textfold.GramKey(0, 0, r))
			if p1 >= 0 {
				want = append(want, textfold.GramKey(0, p1, r))
				if p2 >= 0 && p2 < utf8.RuneSelf && p1 < utf8.RuneSelf && r < utf8.RuneSelf {
					want = append(want, textfold.GramKey(p2, p1, r))
				}
			}
			p2, p1 = p1, r
		}
		got := textfold.AppendKeys(slices.Clip(slices.Clone(before)), line)
		if !slices.Equal(got, want) {
			t.Fatalf("AppendKeys(%v, %q) = %x, want %x", before, line, got, want)
		}
	})
}
