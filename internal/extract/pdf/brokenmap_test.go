package pdf

import (
	"reflect"
	"testing"
)

// TestBrokenMap: which ToUnicode maps the font's own text overrides: one
// that contradicts it on nearly every code with letters of another script
// (Hangul, Greek or kanji for Latin, Hangul for Cyrillic); never one in
// the glyphs' own script (a deliberate Japanese map, a Latin cipher), one
// that agrees on more than a tenth of the codes, or one with too few
// letters to tell.
func TestBrokenMap(t *testing.T) {
	// own: the font's text of codes 1, 2, 3...
	seq := func(texts ...string) map[uint32]string {
		m := map[uint32]string{}
		for i, s := range texts {
			m[uint32(i+1)] = s
		}
		return m
	}
	tests := []struct {
		name    string
		tu, own map[uint32]string
		want    map[rune]string
	}{
		{"Hangul for Latin", seq("걌", "걯", "걲", "갠"), seq("L", "o", "r", " "),
			map[rune]string{'걌': "L", '걯': "o", '걲': "r", '갠': " "}},
		{"Greek for Latin, one code untold", seq("Δ", "ο", "λ"), seq("D", "", "l"), nil},
		{"Greek for Latin", seq("Δ", "ο", "λ"), seq("D", "o", "l"),
			map[rune]string{'Δ': "D", 'ο': "o", 'λ': "l"}},
		{"kanji for Latin", seq("日", "本", "語"), seq("a", "b", "c"), map[rune]string{'日': "a", '本': "b", '語': "c"}},
		{"Hangul for Cyrillic", seq("뀟", "끀", "뀸"), seq("П", "р", "и"), map[rune]string{'뀟': "П", '끀': "р", '뀸': "и"}},
		{"a deliberate Japanese map", seq("本", "語", "の", "日"), seq("日", "本", "語", "の"), nil},
		{"katakana for kanji", seq("ア", "イ", "ウ"), seq("亜", "伊", "宇"), nil},
		{"a Latin cipher", seq("B", "C", "D"), seq("A", "B", "C"), nil},
		{"two codes only", seq("걌", "걯"), seq("L", "o"), nil},
		{"a fifth agrees", seq("걌", "걯", "걲", "걥", "m"), seq("L", "o", "r", "e", "m"), nil},
		{"no letters", seq("갱", "갲", "갳"), seq("1", "2", "3"), nil},
		{"the font does not tell", seq("걌", "걯", "걲"), seq("", "", ""), nil},
		{"ligatures one for one", seq("걌", "걯", "걲", "걦걦걩"), seq("L", "o", "r", "ffi"),
			map[rune]string{'걌': "L", '걯': "o", '걲': "r", '걦': "f", '걩': "i"}},
		{"a character two glyphs share", seq("걌", "걯", "걲", "걌"), seq("L", "o", "r", "M"),
			map[rune]string{'걯': "o", '걲': "r"}},
	}
	for _, tt := range tests {
		own := func(code uint32) string { return tt.own[code] }
		if got := brokenMap(tt.tu, own); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestScriptOf(t *testing.T) {
	tests := []struct {
		r    rune
		want script
	}{
		{'A', scriptLatin}, {'é', scriptLatin}, {'Ω', scriptGreek}, {'Ͱ', scriptGreek}, {'П', scriptCyrillic},
		{'걌', scriptHangul}, {'日', scriptCJK}, {'の', scriptCJK}, {'ア', scriptCJK}, {'ー', scriptNone},
		{'1', scriptNone}, {' ', scriptNone}, {'΅', scriptNone}, {'ก', scriptOther},
	}
	for _, tt := range tests {
		if got := scriptOf(tt.r); got != tt.want {
			t.Errorf("scriptOf(%q) = %d, want %d", tt.r, got, tt.want)
		}
	}
}
