package textfold

import "unicode/utf8"

// AppendKana appends s (already folded) with every katakana turned into
// its hiragana (--kana: hiragana = katakana). Both are three bytes in
// UTF-8, so offsets into s stay valid.
func AppendKana(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0xE3 || i+2 >= len(s) {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if n == 3 {
			r = KanaRune(r)
			dst = utf8.AppendRune(dst, r)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// Kana is AppendKana for a string.
func Kana(s string) string { return string(AppendKana(nil, []byte(s))) }

// KanaRune maps a katakana to its hiragana; other runes are unchanged.
func KanaRune(r rune) rune {
	switch {
	case r >= 0x30A1 && r <= 0x30F6: // ァ…ヶ → ぁ…ゖ
		return r - 0x60
	case r == 0x30FD || r == 0x30FE: // ヽヾ → ゝゞ
		return r - 0x60
	}
	return r
}
