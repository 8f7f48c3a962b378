package textfold

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// slowFold is Append without its fast path: the Scanner's units alone.
func slowFold(s []byte) []byte {
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

// slowMapSpans is MapSpans over a list of every unit: the definition.
func slowMapSpans(s []byte, spans [][2]int) {
	type unit struct {
		start, end, fpos, fl int
		space                bool
	}
	var units []unit
	var sc Scanner
	sc.Reset(s)
	fpos := 0
	for sc.Scan() {
		fl := len(sc.Folded())
		units = append(units, unit{sc.Start(), sc.End(), fpos, fl, spaceLen(s, sc.Start()) > 0})
		fpos += fl
	}
	k := 0
	for i := range spans {
		a, b := spans[i][0], spans[i][1]
		for k < len(units) && (units[k].fl == 0 || units[k].fpos+units[k].fl <= a) {
			k++
		}
		if k == len(units) {
			spans[i] = [2]int{len(s), len(s)}
			continue
		}
		start := units[k].start
		if b <= a {
			spans[i] = [2]int{start, start}
			continue
		}
		e := k
		for j := k; j < len(units) && units[j].fpos < b; j++ {
			if units[j].fl > 0 {
				e = j
			}
		}
		end := units[e].end
		for j := e + 1; j < len(units) && units[j].fl == 0 && !units[j].space; j++ {
			end = units[j].end
		}
		spans[i] = [2]int{start, end}
	}
}

// FuzzMapSpans compares MapSpans with its definition for the spans of
// every folded rune pair.
func FuzzMapSpans(f *testing.F) {
	for _, p := range foldPieces {
		f.Add("サーバー" + p + "見 積" + p + "ＡＢ")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		folded := String(s)
		var bounds []int
		for i := range folded {
			bounds = append(bounds, i)
		}
		bounds = append(bounds, len(folded))
		for step := 1; step <= 3; step++ {
			var spans [][2]int
			for i := 0; i+step < len(bounds); i += step + 1 {
				spans = append(spans, [2]int{bounds[i], bounds[i+step]})
			}
			a := append([][2]int(nil), spans...)
			b := append([][2]int(nil), spans...)
			MapSpans([]byte(s), a)
			slowMapSpans([]byte(s), b)
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("MapSpans(%q, %v)[%d] = %v, want %v", s, spans, i, a[i], b[i])
				}
			}
		}
	})
}
