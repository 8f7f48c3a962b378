package text

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/testutil"

	"golang.org/x/text/encoding/japanese"
)

func u16(s string, be bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if be {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// pairs builds byte pairs: z odd NULs ("a\x00"), e even NULs ("\x00a") and
// the rest plain ("bc").
func pairs(odd, even, n int) []byte {
	var b []byte
	for i := 0; i < odd; i++ {
		b = append(b, 'a', 0)
	}
	for i := 0; i < even; i++ {
		b = append(b, 0, 'a')
	}
	for i := odd + even; i < n; i++ {
		b = append(b, 'b', 'c')
	}
	return b
}

func swap(b []byte) []byte {
	out := append([]byte{}, b...)
	for i := 0; i+1 < len(out); i += 2 {
		out[i], out[i+1] = out[i+1], out[i]
	}
	return out
}

func sjis(t *testing.T, s string) []byte {
	b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rep(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }

func TestDetectTextEncoding(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want textEncoding
		not  bool // want is what it must not be
	}{
		// Rule 1.
		{"utf-32le bom", []byte{0xFF, 0xFE, 0, 0}, encRejected, false},
		{"utf-32be bom", []byte{0, 0, 0xFE, 0xFF}, encRejected, false},
		{"utf-8 bom", []byte{0xEF, 0xBB, 0xBF, 'a'}, encUTF8BOM, false},
		{"utf-16le bom", []byte{0xFF, 0xFE, 'a', 0}, encUTF16LEBOM, false},
		{"utf-16be bom", []byte{0xFE, 0xFF, 0, 'a'}, encUTF16BEBOM, false},
		{"utf-16le bom wins over utf-32 lookalike shortness", []byte{0xFF, 0xFE, 0}, encUTF16LEBOM, false},
		// Rule 2: O ≥ 20 % of N and E ≤ O/10.
		{"odd nuls at 20 %", pairs(2, 0, 10), encUTF16LE, false},
		{"odd nuls under 20 %", pairs(2, 0, 11), encUTF8, false},
		{"even nuls at a tenth of odd", pairs(10, 1, 50), encUTF16LE, false},
		{"even nuls over a tenth of odd", pairs(10, 2, 50), encUTF8, false},
		{"even nuls at 20 %", swap(pairs(2, 0, 10)), encUTF16BE, false},
		{"even nuls under 20 %", swap(pairs(2, 0, 11)), encUTF8, false},
		{"odd nuls at a tenth of even", swap(pairs(10, 1, 50)), encUTF16BE, false},
		{"odd nuls over a tenth of even", swap(pairs(10, 2, 50)), encUTF8, false},
		{"nul skew looks at 64 KB only", append(bytes.Repeat([]byte("ab"), 32<<10), pairs(20, 0, 20)...), encUTF8, false},
		{"odd length is cut", append(pairs(2, 0, 10), 0), encUTF16LE, false},
		// Rule 3: kana ≥ 20 %, other ≤ 5 %, 90 % for 7-bit input, 8 bytes.
		{"7-bit kana at 90 %", u16(rep("あ", 9)+"\u4142", false), encUTF16LE, false},
		{"7-bit kana under 90 %", u16(rep("あ", 8)+"\u4142\u4142", false), encUTF8, false},
		{"7-bit kana big-endian", u16(rep("あ", 10), true), encUTF16BE, false},
		{"kana at 20 %", u16("あ日日日日", false), encUTF16LE, false},
		{"kana under 20 %", u16("あ日日日日日", false), encUTF16LE, true},
		{"other at 5 %", u16(rep("あ", 10)+rep("日", 9)+"\uAC01", false), encUTF16LE, false},
		{"other over 5 %", u16(rep("あ", 10)+rep("日", 8)+"\uAC01\uAC01", false), encUTF16LE, true},
		{"under 8 bytes", u16("あい", false), encUTF8, false},
		{"8 bytes", u16("あいうえ", false), encUTF16LE, false},
		// Rule 4.
		{"iso-2022-jp", []byte("\x1b$B$3$s\x1b(B"), encISO2022JP, false},
		{"iso-2022-jp old jis", []byte("\x1b$@$3$s\x1b(J"), encISO2022JP, false},
		{"iso-2022-jp with katakana", []byte("\x1b$B$3\x1b(I1\x1b(B"), encISO2022JP, false},
		{"iso-2022-jp with 8-bit byte", []byte("\x1b$B$3\x1b(B\x80"), encRejected, false},
		{"iso-2022-jp with unknown escape", []byte("\x1b$B$3\x1b(B\x1b[0m"), encRejected, false},
		{"iso-2022-jp with cut escape", []byte("\x1b$B$3\x1b("), encRejected, false},
		{"escape without a jis switch is utf-8", []byte("\x1b[1mbold\x1b(B"), encUTF8, false},
		// Rule 5.
		{"ascii", []byte("plain"), encUTF8, false},
		{"utf-8", []byte("日本語"), encUTF8, false},
		// Rule 6.
		{"shift_jis", sjis(t, "日本語のテキスト"), encShiftJIS, false},
		{"shift_jis half-width at 30 %", sjis(t, rep("日", 7)+"ｱｲｳ"), encShiftJIS, false},
		{"shift_jis half-width over 30 % without evidence", sjis(t, rep("日", 6)+"ｱｲｳ"), encRejected, false},
		{"shift_jis natural half-width", sjis(t, "ｺﾝﾋﾟｭｰﾀ"), encShiftJIS, false},
		{"shift_jis half-width voiced mark after a wrong kana", sjis(t, "ｱﾞｲｳ"), encRejected, false},
		{"shift_jis half-width run starting with a small kana", sjis(t, "ｯﾃﾞｰ"), encRejected, false},
		{"shift_jis with private use", []byte{0x93, 0xfa, 0xF0, 0x40}, encRejected, false},
		{"euc-jp", []byte{0xC6, 0xFC, 0xCB, 0xDC, 0xA4, 0xCE}, encEUCJP, false}, // 日本の
		{"euc-jp read as mostly half-width shift_jis", append(bytes.Repeat([]byte{0xB1, 0xB1}, 10), 0xA4, 0xA2), encEUCJP, false},
		{"both readings, shift_jis not mostly half-width", append(bytes.Repeat([]byte{0xE0, 0xA1}, 5), 0xA4, 0xA2), encRejected, false},
		{"gbk", []byte{0xD6, 0xD0, 0xCE, 0xC4}, encRejected, false},
		{"binary", []byte{0x01, 0x02, 0x03, 0xFF, 0xFE, 0x10}, encRejected, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := detectTextEncoding(tt.in)
			if tt.not && got == tt.want {
				t.Errorf("detectTextEncoding(% x) = %v, want anything else", tt.in, got)
			}
			if !tt.not && got != tt.want {
				t.Errorf("detectTextEncoding(% x) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\r\n", nil},
		{"a", []string{"a"}},
		{"a\r\n", []string{"a"}},
		{"a\r\r\nb", []string{"a", "", "b"}},
		{"a\u2028b", []string{"a\u2028b"}},
		{"a \u3000\n b\t", []string{"a", " b"}},
		{"a\rb\rc", []string{"a", "b", "c"}},
		{"a\rb\nc\r\nd\n\re\r", []string{"a", "b", "c", "d", "", "e"}},
		{"\n\nx\r\r\ny", []string{"", "", "x", "", "y"}},
	}
	for _, tt := range tests {
		got := splitLines(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("splitLines(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("splitLines(%q) = %q, want %q", tt.in, got, tt.want)
				break
			}
		}
	}
}

// TestTrimRightSpace checks trimRightSpace against strings.TrimRightFunc
// with unicode.IsSpace on every code point of the BMP (and every 97th
// above) alone, after ASCII, after a kanji and itself, and before spaces,
// and on broken UTF-8 that decodes to a space by its bits alone (overlong
// forms of the space and of U+3000, a surrogate, cut characters).
func TestTrimRightSpace(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := trimRightSpace(s), strings.TrimRightFunc(s, unicode.IsSpace); got != want {
			t.Fatalf("trimRightSpace(%q) = %q, want %q", s, got, want)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r < 0xE000 {
			continue
		}
		if r > 0xFFFF && r%97 != 0 {
			// Four-byte characters all take utf8.DecodeLastRuneInString.
			continue
		}
		s := string(r)
		check(s)
		check("a" + s)
		check("漢" + s + s)
		check(s + " \u3000\t")
	}
	for _, s := range []string{"", " ", "\xe0\x80\xa0", "a\xe0\x80\xa0", "\xe0\x80\x80 ", "\xed\xa0\x80", "\xc0\xa0",
		"\xe3\x80", "\x80\x80", "\xe3\x80\x80\x80", "\xf0\x80\x80\xa0", "a\u3000\xe3\x80\x80\u2028", "\u0085\u00a0"} {
		check(s)
	}
}

// splitLinesBefore is splitLines as plainly as it can be said (CR LF, CR
// and LF end a line; strings.TrimRightFunc with unicode.IsSpace), the
// oracle of FuzzSplitLines.
func splitLinesBefore(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func FuzzSplitLines(f *testing.F) {
	testutil.AddSeeds(f, "text/*")
	f.Add([]byte("a \u3000\r\n\r b\t\u2028\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		got, want := splitLines(s), splitLinesBefore(s)
		if len(got) != len(want) || !slices.Equal(got, want) {
			t.Fatalf("splitLines(%q) = %q, want %q", s, got, want)
		}
	})
}
