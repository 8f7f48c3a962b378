package textfold

import (
	"math/rand/v2"
	"testing"
)

// slowFold is Append without the unit's fast path.
func slowFold(s []byte) []byte {
	slowUnits = true
	defer func() { slowUnits = false }()
	var dst []byte
	var sc Scanner
	sc.Reset(s)
	for sc.Scan() {
		dst = append(dst, sc.Folded()...)
	}
	return dst
}

// foldPieces are the runes and bytes the fast paths must tell apart.
var foldPieces = []string{"か", "カ", "は", "ハ", "う", "ゝ", "\u3099", "\u309a", "ｶ", "ﾊ", "ﾞ", "ﾟ", "\u3000", "、",
	"漢", "字", "Ａ", "a", "Z", " ", "\t", "é", "\xe3", "\xe3\x81", "\xff", "ㇰ", "〆", "ー", "\u30fb", "ケ", "ヶ", "ヵ", "髙", "\ufe00", "\U000E0100", "3", "々", "サーバ", "\u00a0"}

func TestAppendFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var s []byte
		for k := rng.IntN(8); k >= 0; k-- {
			s = append(s, foldPieces[rng.IntN(len(foldPieces))]...)
		}
		if got, want := Append(nil, s), slowFold(s); string(got) != string(want) {
			t.Fatalf("Append(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzAppend(f *testing.F) {
	for _, p := range foldPieces {
		f.Add([]byte("か" + p + "ハﾞ" + p))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		if got, want := Append(nil, s), slowFold(s); string(got) != string(want) {
			t.Fatalf("Append(%q) = %q, want %q", s, got, want)
		}
	})
}
