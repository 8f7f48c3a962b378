package bodyindex

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// slowFold is AppendFold without its fast paths: every rune decoded,
// folded and composed with a following sound mark.
func slowFold(s []byte) []byte {
	var dst []byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		f := foldRune(r)
		if i+n < len(s) {
			if m, mn := utf8.DecodeRune(s[i+n:]); isMark(m) {
				if c := compose(f, markOf(m)); c != 0 {
					dst = utf8.AppendRune(dst, c)
					i += n + mn
					continue
				}
			}
		}
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, s[i])
		} else {
			dst = utf8.AppendRune(dst, f)
		}
		i += n
	}
	return dst
}

// foldPieces are the runes and bytes the fast paths must tell apart.
var foldPieces = []string{"か", "カ", "は", "ハ", "う", "ゝ", "\u3099", "\u309a", "ｶ", "ﾊ", "ﾞ", "ﾟ", "\u3000", "、",
	"漢", "字", "Ａ", "a", "Z", " ", "\t", "é", "\xe3", "\xe3\x81", "\xff", "ㇰ", "〆", "ー", "\u30fb"}

func TestAppendFoldFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var s []byte
		for k := rng.IntN(8); k >= 0; k-- {
			s = append(s, foldPieces[rng.IntN(len(foldPieces))]...)
		}
		if got, want := AppendFold(nil, s), slowFold(s); string(got) != string(want) {
			t.Fatalf("AppendFold(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzAppendFold(f *testing.F) {
	for _, p := range foldPieces {
		f.Add([]byte("か" + p + "ハﾞ" + p))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		if got, want := AppendFold(nil, s), slowFold(s); string(got) != string(want) {
			t.Fatalf("AppendFold(%q) = %q, want %q", s, got, want)
		}
	})
}
