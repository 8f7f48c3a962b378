package codepage_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/codepage"
)

// TestEncoding decodes a sample of each code page, chosen where the page
// differs from its neighbours (850 from 437 at 0x9B, 865 from 850 at
// 0xAF, …); the expected text is Python's codecs' reading of the same
// bytes. A page that Encoding knows without a row here fails.
func TestEncoding(t *testing.T) {
	tests := []struct {
		cp   int
		in   string
		want string
	}{
		{437, "\xe1\x9b", "ß¢"},
		{850, "\x9b\x9d", "øØ"},
		{852, "\xa5", "ą"},
		{855, "\x80\x81", "ђЂ"},
		{860, "\x84", "ã"},
		{862, "\x80", "א"},
		{863, "\x84", "Â"},
		{865, "\x9b\xaf", "ø¤"},
		{866, "\x8f\xe0\xa8\xa2\xa5\xe2", "Привет"},
		{874, "\xa1", "ก"},
		{932, "\x93\xfa\x96\x7b\x8c\xea\xb1", "日本語ｱ"},
		{936, "\xd6\xd0\xce\xc4", "中文"},
		{949, "\xc7\xd1\xb1\xb9\xbe\xee", "한국어"},
		{950, "\xa4\xa4\xa4\xe5", "中文"},
		{1250, "\xb9\x8a", "ąŠ"},
		{1251, "\xcf\xf0\xe8\xe2\xe5\xf2", "Привет"},
		{1252, "\x80\xe9", "€é"},
		{1253, "\xe1", "α"},
		{1254, "\xf0", "ğ"},
		{1255, "\xe0", "א"},
		{1256, "\xc7", "ا"},
		{1257, "\xe0", "ą"},
		{1258, "\xf0", "đ"},
		{10000, "\x8e", "é"},
		// Pages with no decoder here: UTF-16 (BIFF8's CODEPAGE 1200),
		// UTF-8, BIFF's own number for Mac Roman, none and nonsense.
		{cp: 1200},
		{cp: 65001},
		{cp: 32768},
		{cp: 0},
		{cp: -1},
		{cp: 99999},
	}
	sampled := map[int]bool{}
	for _, tt := range tests {
		sampled[tt.cp] = true
		enc, ok := codepage.Encoding(tt.cp)
		if tt.want == "" {
			if ok || enc != nil {
				t.Errorf("Encoding(%d) = %v, %v, want nil, false", tt.cp, enc, ok)
			}
			continue
		}
		if !ok || enc == nil {
			t.Errorf("Encoding(%d) = %v, %v, want a decoder", tt.cp, enc, ok)
			continue
		}
		got, err := enc.NewDecoder().String(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Encoding(%d) decodes %q to %q, %v, want %q", tt.cp, tt.in, got, err, tt.want)
		}
	}
	for cp := 0; cp <= 0xFFFF; cp++ {
		if _, ok := codepage.Encoding(cp); ok && !sampled[cp] {
			t.Errorf("Encoding(%d) has a decoder but no sample in this test", cp)
		}
	}
}

// TestLead: the lead bytes of the double-byte pages, at and beyond the
// ends of their ranges; single-byte and unknown pages have no test.
func TestLead(t *testing.T) {
	tests := []struct {
		cp    int
		leads []byte
		not   []byte
	}{
		{932, []byte{0x81, 0x93, 0x9F, 0xE0, 0xFC}, []byte{0x00, 0x41, 0x80, 0xA0, 0xB1, 0xDF, 0xFD, 0xFF}},
		{936, []byte{0x81, 0xD6, 0xFE}, []byte{0x41, 0x80, 0xFF}},
		{949, []byte{0x81, 0xC7, 0xFE}, []byte{0x41, 0x80, 0xFF}},
		{950, []byte{0x81, 0xA4, 0xFE}, []byte{0x41, 0x80, 0xFF}},
	}
	for _, tt := range tests {
		lead := codepage.Lead(tt.cp)
		if lead == nil {
			t.Errorf("Lead(%d) = nil, want a test", tt.cp)
			continue
		}
		for _, b := range tt.leads {
			if !lead(b) {
				t.Errorf("Lead(%d)(%#x) = false, want true", tt.cp, b)
			}
		}
		for _, b := range tt.not {
			if lead(b) {
				t.Errorf("Lead(%d)(%#x) = true, want false", tt.cp, b)
			}
		}
	}
	for _, cp := range []int{437, 874, 1252, 1258, 10000, 1200, 0} {
		if codepage.Lead(cp) != nil {
			t.Errorf("Lead(%d) is not nil, want nil (single-byte or unknown page)", cp)
		}
	}
}

func TestForCharset(t *testing.T) {
	for _, c := range []struct {
		cs, cp int
		ok     bool
	}{
		{0, 1252, true}, {128, 932, true}, {134, 936, true}, {163, 1258, true}, {77, 10000, true},
		{1, 0, false}, {2, 0, false}, {255, 0, false},
	} {
		cp, ok := codepage.ForCharset(c.cs)
		if cp != c.cp || ok != c.ok {
			t.Errorf("ForCharset(%d) = %d, %v; want %d, %v", c.cs, cp, ok, c.cp, c.ok)
		}
		if ok {
			if _, has := codepage.Encoding(cp); !has {
				t.Errorf("charset %d maps to code page %d, which has no decoder here", c.cs, cp)
			}
		}
	}
}
