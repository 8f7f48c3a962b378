package wordpage

import (
	"reflect"
	"strings"
	"testing"
)

func TestTextLines(t *testing.T) {
	// A4 less 1701-twip margins: 8504 twips; 10.5 pt = 210 twips an em,
	// so 40 full-width characters a line.
	const width, em = 8504, 210
	tests := []struct {
		name  string
		text  string
		lines int
		cjk   bool
	}{
		{"empty", "", 1, false},
		{"one full line", strings.Repeat("あ", 40), 1, true},
		{"one more", strings.Repeat("あ", 41), 2, true},
		{"no line start", strings.Repeat("あ", 40) + "。", 2, true},
		{"latin words wrap", strings.Repeat("abcd ", 40), 3, false},
		{"long word", strings.Repeat("a", 200), 3, false},
		{"row cells", strings.Repeat("あ", 25) + "\t" + "い", 2, true},
	}
	for _, tt := range tests {
		n, cjk := textLines(tt.text, width, em)
		if n != tt.lines || cjk != tt.cjk {
			t.Errorf("%s: textLines = %d, %v; want %d, %v", tt.name, n, cjk, tt.lines, tt.cjk)
		}
	}
}

func TestEstimate(t *testing.T) {
	// A grid of 10 lines a page: text height 3600 twips, pitch 360.
	lay := Layout{PageWidth: 11906, PageHeight: 3600 + 2880, Left: 1701, Right: 1701, Top: 1440, Bottom: 1440, FontSize: 21, LinePitch: 360}
	line := func(n int) string { return strings.Repeat("あ", 40*n) }
	tests := []struct {
		name  string
		paras []Para
		want  []int
	}{
		{"fits", []Para{{Text: line(3), Page: 1}, {Text: line(7), Page: 1}}, []int{1, 1}},
		{"next page", []Para{{Text: line(8), Page: 1}, {Text: line(3), Page: 1}}, []int{1, 1}},
		{"starts on the next page", []Para{{Text: line(10), Page: 1}, {Text: "x", Page: 1}}, []int{1, 2}},
		{"long paragraph", []Para{{Text: line(25), Page: 1}, {Text: "x", Page: 1}}, []int{1, 3}},
		{"blank lines", []Para{{Text: line(9), Page: 1}, {Text: "x", Page: 1, Blank: 1}}, []int{1, 2}},
		{"explicit break", []Para{{Text: line(12), Page: 1}, {Text: "x", Page: 2}, {Text: line(10), Page: 2}}, []int{1, 3, 3}},
	}
	for _, tt := range tests {
		if got := lay.Estimate(tt.paras); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Estimate = %v, want %v", tt.name, got, tt.want)
		}
	}
}
