package sheet

import (
	"testing"
)

func TestXlHeaderFooterSections(t *testing.T) {
	got := headerFooterSections(`&L&"ＭＳ ゴシック,太字"社外秘&C&P / &N&RR&&D部 &14作成`)
	want := [3]string{"社外秘", " / ", "R&D部 作成"}
	if got != want {
		t.Errorf("sections = %q, want %q", got, want)
	}
	tests := []struct{ in, want string }{
		{"&P+1頁", "頁"},
		{"&KFF0000赤&K01+000テーマ", "赤テーマ"},
		{"&B&I&U&E&S&X&Y&O&H太字", "太字"},
		{"&D &T &Z&F &A &G", "    "},
		{"&Qそのまま&", "&Qそのまま&"},
		{"&141文字", "文字"},
		{"前&12後", "前後"},
	}
	for _, tt := range tests {
		if got := headerFooterSections(tt.in); got[1] != tt.want {
			t.Errorf("xlHeaderFooterSections(%q) centre = %q, want %q", tt.in, got[1], tt.want)
		}
	}
}

func TestXlCellField(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"りんご\n青森産", "\"りんご\u2028青森産\""},
		{`特"A"級`, `"特""A""級"`},
		{"a\tb", "\"a\tb\""},
		{"a\r\nb\rc", "\"a\u2028b\u2028c\""},
		{"  spaced  ", "  spaced  "},
	}
	for _, tt := range tests {
		if got := CellField(tt.in); got != tt.want {
			t.Errorf("xlCellField(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := ObjectCellText("  山田:\n至急確認 \n"); got != "\"山田:\u2028至急確認\"" {
		t.Errorf("xlObjectCellText = %q", got)
	}
}

func TestXlUnescape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a_x000D_b", "a\rb"},
		{"_x005F_x000D_", "_x000D_"},
		{"_x0041", "_x0041"},
		{"plain_x", "plain_x"},
	}
	for _, tt := range tests {
		if got := Unescape(tt.in); got != tt.want {
			t.Errorf("xlUnescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestXlParseRef(t *testing.T) {
	tests := []struct {
		in       string
		col, row int
		ok       bool
	}{
		{"A1", 1, 1, true},
		{"$B$3", 2, 3, true},
		{"XFD1048576", 16384, 1048576, true},
		{"XFE1", 0, 0, false},
		{"A1048577", 0, 0, false},
		{"A0", 0, 0, false},
		{"1A", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		c, r, ok := ParseRef(tt.in)
		if c != tt.col || r != tt.row || ok != tt.ok {
			t.Errorf("xlParseRef(%q) = %d, %d, %v; want %d, %d, %v", tt.in, c, r, ok, tt.col, tt.row, tt.ok)
		}
	}
	for _, n := range []int{1, 26, 27, 52, 53, 702, 703, 16384} {
		if got := parseCol(columnName(n)); got != n {
			t.Errorf("column %d round trip = %d (%s)", n, got, columnName(n))
		}
	}
}
