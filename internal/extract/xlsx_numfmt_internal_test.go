package extract

import (
	"testing"
	"time"
)

// xlSerial returns the 1900-system serial of a date and time.
func xlSerial(y, m, d, hh, mm, ss int) float64 {
	t := time.Date(y, time.Month(m), d, hh, mm, ss, 0, time.UTC)
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	return float64(t.Unix()-base.Unix()) / 86400
}

func TestXlGeneralNumber(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1, "1"},
		{-1, "-1"},
		{0.5, "0.5"},
		{2.5, "2.5"},
		{0.1 + 0.2, "0.3"},
		{1234.5678, "1234.5678"},
		{123456789.123, "123456789.1"},
		{-123456789.123, "-123456789.1"},
		{3.14159265358979, "3.141592654"},
		{-3.14159265358979, "-3.141592654"},
		{12345678901, "12345678901"},
		{-12345678901, "-12345678901"},
		{123456789012, "1.23457E+11"},
		{4901234567894, "4.90123E+12"},
		{100000000000, "1E+11"},
		{1e15, "1E+15"},
		{1.2e20, "1.2E+20"},
		{0.00001, "0.00001"},
		{0.0000123456, "1.23456E-05"},
		{0.00001234567, "1.23457E-05"},
		{0.000123456789, "0.000123457"},
		{0.000123456, "0.000123456"},
		{1e-10, "1E-10"},
		{-1e-10, "-1E-10"},
		{0.1234567891234, "0.123456789"},
		{99999.99999999, "100000"},
		{42, "42"},
	}
	for _, tt := range tests {
		if got := xlGeneralNumber(tt.v); got != tt.want {
			t.Errorf("xlGeneralNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestXlFormatNumber(t *testing.T) {
	monday := xlSerial(2024, 1, 15, 0, 0, 0) // 45306
	tests := []struct {
		code string
		v    float64
		want string
	}{
		{"0", 1234.5, "1235"},
		{"0", -0.4, "-0"},
		{"0", 0, "0"},
		{"0.00", 2.675, "2.68"},
		{"0.00", 1.005, "1.01"},
		{"0.00", -1.5, "-1.50"},
		{"#,##0", 1234567.89, "1,234,568"},
		{"#,##0", 0, "0"},
		{"#,##0", -1234, "-1,234"},
		{"#,##0", 123, "123"},
		{"#,##0.00", 1234.5, "1,234.50"},
		{"#,##0", 12345678901234567890, "12,345,678,901,234,600,000"},
		{"0%", 0.256, "26%"},
		{"0.00%", 0.12345, "12.35%"},
		{"0.00E+00", 12345, "1.23E+04"},
		{"0.00E+00", 0.00012, "1.20E-04"},
		{"0.00E+00", 0, "0.00E+00"},
		{"##0.0E+0", 12345, "12.3E+3"},
		{"# ?/?", 1.5, "1 1/2"},
		{"# ??/??", 3.14159, "3 14/99"},
		{"?/8", 0.375, "3/8"},
		{"# ?/?", 2, "2"},
		{"?/4", 1234.5678, "4938/4"},
		{"?/4", 0, "0/4"},
		{"?/?", 0, "0/1"},
		{"000-0000", 1234567, "123-4567"},
		{"000-0000", 12345, "001-2345"},
		{`"¥"#,##0;"¥"\-#,##0`, -1234, "¥-1,234"},
		{`"¥"#,##0;"¥"\-#,##0`, 1234, "¥1,234"},
		{`#,##0;[Red]-#,##0`, -5, "-5"},
		{`0;-0;;@`, 0, ""},
		{`#,##0,`, 1234567, "1,235"},
		{`0.0,,"M"`, 12345678, "12.3M"},
		{`[>=1000]#,##0,"K";0`, 1500, "2K"},
		{`[>=1000]#,##0,"K";0`, 999, "999"},
		{`[<0]"マイナス";[>0]"プラス";"ゼロ"`, 0, "ゼロ"},
		{`[<0]"マイナス";[>0]"プラス";"ゼロ"`, 3, "プラス"},
		{"@", 12, "12"},
		{"0.0#", 1, "1.0"},
		{"0.0#", 1.25, "1.25"},
		{"#.##", 0.5, ".5"},
		{"#.##", 5, "5."},
		{`_ * #,##0_ ;_ * \-#,##0_ ;_ * "-"_ ;_ @_ `, 1234, " 1,234 "},
		{`_ * #,##0_ ;_ * \-#,##0_ ;_ * "-"_ ;_ @_ `, 0, " - "},
		{`_ * #,##0_ ;_ * \-#,##0_ ;_ * "-"_ ;_ @_ `, -5, " -5 "},
		{`General"円"`, 100, "100円"},
		{`[$¥-411]#,##0`, 1000, "¥1,000"},
		{`[$$-409]#,##0.00`, 5, "$5.00"},
		{`0.00;[Red]0.00`, -1.5, "1.50"},
		{`#,##0"個"`, 3000, "3,000個"},
		{`0"点"`, 85, "85点"},
		{"0000", 42, "0042"},
		{`[DBNum1]0`, 1234, "千二百三十四"},
		// dates and times
		{"yyyy/m/d", monday, "2024/1/15"},
		{`yyyy"年"m"月"d"日"`, monday, "2024年1月15日"},
		{`[$-411]ggge"年"m"月"d"日"`, monday, "令和6年1月15日"},
		{`[$-411]ge.m.d`, monday, "R6.1.15"},
		{`gge`, monday, "令6"},
		{`[DBNum1][$-411]ggge"年"m"月"d"日"`, monday, "令和六年一月十五日"},
		{`yyyy/mm/dd (aaa)`, monday, "2024/01/15 (月)"},
		{`aaaa`, monday, "月曜日"},
		{`ddd`, monday, "Mon"},
		{`dddd`, monday, "Monday"},
		{`mmm`, monday, "Jan"},
		{`mmmm`, monday, "January"},
		{`mmmmm`, monday, "J"},
		{`d-mmm-yy`, monday, "15-Jan-24"},
		{`yy.mm.dd`, monday, "24.01.15"},
		{`h:mm`, 0.5, "12:00"},
		{`h:mm AM/PM`, 0.75, "6:00 PM"},
		{`h:mm AM/PM`, 0, "12:00 AM"},
		{`[$-411]AM/PM h:mm`, 0.25, "午前 6:00"},
		{`hh:mm:ss`, monday + 0.5208333333333334, "12:30:00"},
		{`h:mm`, xlSerial(2024, 1, 15, 10, 29, 45), "10:29"},
		{`h:mm:ss`, 0.999999999, "0:00:00"},
		{`[h]:mm:ss`, 1.5, "36:00:00"},
		{`[mm]:ss`, 0.5, "720:00"},
		{`mm:ss.0`, 1.5 / 86400, "00:01.5"},
		{`yyyy/m/d h:mm`, monday + 0.75, "2024/1/15 18:00"},
		{`h"時"mm"分"`, 0.5, "12時00分"},
		{"yyyy/m/d", 60, "1900/2/29"},
		{"yyyy/m/d", 61, "1900/3/1"},
		{"yyyy/m/d", 1, "1900/1/1"},
		{"yyyy/m/d", 0, "1900/1/0"},
		{`ggge"年"m"月"d"日"`, xlSerial(1989, 1, 7, 0, 0, 0), "昭和64年1月7日"},
		{`ggge"年"m"月"d"日"`, xlSerial(1989, 1, 8, 0, 0, 0), "平成1年1月8日"},
		{`ggge"年"m"月"d"日"`, xlSerial(2019, 4, 30, 0, 0, 0), "平成31年4月30日"},
		{`ggge"年"m"月"d"日"`, xlSerial(2019, 5, 1, 0, 0, 0), "令和1年5月1日"},
		{`[$-F800]dddd, mmmm dd, yyyy`, monday, "2024年1月15日"},
		{`yyyy/m/d`, -1, "-1"},
	}
	for _, tt := range tests {
		f := xlCompile(tt.code)
		if got := f.number(tt.v, false); got != tt.want {
			t.Errorf("xlCompile(%q).number(%v) = %q, want %q", tt.code, tt.v, got, tt.want)
		}
	}
}

func TestXlFormat1904(t *testing.T) {
	if got := xlCompile("yyyy/m/d").number(0, true); got != "1904/1/1" {
		t.Errorf("1904 serial 0 = %q, want 1904/1/1", got)
	}
}

func TestXlFormatText(t *testing.T) {
	tests := []struct{ code, v, want string }{
		{"@", "abc", "abc"},
		{`"Total: "@`, "x", "Total: x"},
		{`0;-0;0;"<"@">"`, "x", "<x>"},
		{`0;-0;0;`, "x", ""},
		{"0.00", "text", "text"},
		{"General", "text", "text"},
	}
	for _, tt := range tests {
		if got := xlCompile(tt.code).text(tt.v); got != tt.want {
			t.Errorf("xlCompile(%q).text(%q) = %q, want %q", tt.code, tt.v, got, tt.want)
		}
	}
}

func TestXlHeaderFooterSections(t *testing.T) {
	got := xlHeaderFooterSections(`&L&"ＭＳ ゴシック,太字"社外秘&C&P / &N&RR&&D部 &14作成`)
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
		if got := xlHeaderFooterSections(tt.in); got[1] != tt.want {
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
		if got := xlCellField(tt.in); got != tt.want {
			t.Errorf("xlCellField(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := xlObjectCellText("  山田:\n至急確認 \n"); got != "\"山田:\u2028至急確認\"" {
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
		if got := xlUnescape(tt.in); got != tt.want {
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
		c, r, ok := xlParseRef(tt.in)
		if c != tt.col || r != tt.row || ok != tt.ok {
			t.Errorf("xlParseRef(%q) = %d, %d, %v; want %d, %d, %v", tt.in, c, r, ok, tt.col, tt.row, tt.ok)
		}
	}
	for _, n := range []int{1, 26, 27, 52, 53, 702, 703, 16384} {
		if got := xlParseCol(xlColumnName(n)); got != n {
			t.Errorf("column %d round trip = %d (%s)", n, got, xlColumnName(n))
		}
	}
}
