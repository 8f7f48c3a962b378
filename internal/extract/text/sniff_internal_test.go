package text

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// fullQualifies is utf16Qualifies without its early stop: every character
// of the window counted, then rule 3's shares.
func fullQualifies(w []byte, bigEndian, sevenBit bool) bool {
	var total, kana, other int
	for i := 0; i+1 < len(w); i += 2 {
		u := rune(w[i]) | rune(w[i+1])<<8
		if bigEndian {
			u = rune(w[i])<<8 | rune(w[i+1])
		}
		total++
		if u >= 0xD800 && u < 0xE000 {
			if u < 0xDC00 && i+3 < len(w) {
				v := rune(w[i+2]) | rune(w[i+3])<<8
				if bigEndian {
					v = rune(w[i+2])<<8 | rune(w[i+3])
				}
				if v >= 0xDC00 && v < 0xE000 {
					i += 2
					continue
				}
			}
			other++
			continue
		}
		if isKana(u) {
			kana++
		} else if !isJapaneseTextRune(u) {
			other++
		}
	}
	if total == 0 {
		return false
	}
	if sevenBit {
		return kana*10 >= total*9
	}
	return kana*5 >= total && other*20 <= total
}

// TestUTF16QualifiesStopsEarly checks that the early stop never changes
// rule 3's answer: on Japanese UTF-8, Shift_JIS, UTF-16 both ways, ASCII,
// random bytes and texts whose shares lie just around the limits.
func TestUTF16QualifiesStopsEarly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ja := strings.Repeat("これは日本語の文章です。カタカナもある。", 400)
	inputs := map[string][]byte{
		"utf8 japanese": []byte(ja),
		"utf16le":       u16(ja, false),
		"utf16be":       u16(ja, true),
		"ascii":         []byte(strings.Repeat("the quick brown fox 0123 ", 300)),
		"7-bit kana":    bytes.Repeat([]byte{0x42, 0x30}, 500),
	}
	for other := 0; other <= 12; other++ {
		// 100 characters: 20 kana, other characters from the rest, others
		// ideographs: around the 5 % limit, at the start or at the end.
		var s []rune
		for i := 0; i < 100; i++ {
			switch {
			case i < 20:
				s = append(s, 'あ')
			case i < 20+other:
				s = append(s, 0xAC00) // Hangul: other
			default:
				s = append(s, '漢')
			}
		}
		inputs["shares "+string(rune('a'+other))] = u16(string(s), false)
		for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
			s[i], s[j] = s[j], s[i]
		}
		inputs["shares reversed "+string(rune('a'+other))] = u16(string(s), false)
	}
	for n := 0; n < 200; n++ {
		b := make([]byte, 8+rng.IntN(4000)&^1)
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if n%2 == 0 {
				b[i] &= 0x7F
			}
		}
		inputs["random "+string(rune('A'+n%26))+string(rune('a'+n/26))] = b
	}
	for name, w := range inputs {
		w = w[:len(w)&^1]
		for _, be := range []bool{false, true} {
			for _, seven := range []bool{false, true} {
				if got, want := utf16Qualifies(w, be, seven), fullQualifies(w, be, seven); got != want {
					t.Errorf("%s (big endian %v, 7-bit %v): utf16Qualifies = %v, full count %v", name, be, seven, got, want)
				}
			}
		}
	}
}
