package text

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/testutil"
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

// bothWays is rule 3 as it was before enoughKana: both readings read by
// utf16Qualifies, whatever their kana.
func bothWays(w []byte) (textEncoding, bool) {
	if len(w) < 8 {
		return encRejected, false
	}
	sevenBit := true
	for _, c := range w {
		if c >= 0x80 {
			sevenBit = false
		}
	}
	le, be := utf16Qualifies(w, false, sevenBit), utf16Qualifies(w, true, sevenBit)
	switch {
	case le && !be:
		return encUTF16LE, true
	case be && !le:
		return encUTF16BE, true
	}
	return encRejected, false
}

// TestEnoughKana checks that skipping a reading without enough kana pairs
// never changes rule 3's answer: kana shares from none to all, kana pairs
// around a tenth of the pairs (the bound) with surrogate pairs making the
// fewest characters, both endiannesses, 7-bit text, Japanese UTF-8 with
// digits, and random bytes rich in 0x30 and 0xFF.
func TestEnoughKana(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := map[string][]byte{
		"utf8 japanese": []byte(strings.Repeat("これは日本語の文章です。第0回、10月30日。", 300)),
		"zeros":         []byte(strings.Repeat("0a0b0c0000x0", 200)),
		"7-bit kana":    bytes.Repeat([]byte{0x42, 0x30}, 500),
	}
	for kana := 0; kana <= 40; kana++ {
		for _, filler := range []string{"漢", "\U00020000", "a", "\uAC00"} {
			// 100 characters: kana, then filler (a surrogate pair per
			// character for U+20000: 100 + the fillers' pairs).
			s := strings.Repeat("あ", kana) + strings.Repeat(filler, 100-kana)
			for _, be := range []bool{false, true} {
				inputs[fmt.Sprintf("kana %d filler %q be %v", kana, filler, be)] = u16(s, be)
			}
		}
	}
	for n := 0; n < 300; n++ {
		b := make([]byte, 8+rng.IntN(600)&^1)
		for i := range b {
			switch rng.IntN(6) {
			case 0:
				b[i] = 0x30
			case 1:
				b[i] = 0xFF
			case 2:
				b[i] = byte(0x41 + rng.IntN(0xBF))
			default:
				b[i] = byte(rng.IntN(256))
				if n%3 == 0 {
					b[i] &= 0x7F
				}
			}
		}
		inputs[fmt.Sprintf("random %d", n)] = b
	}
	for name, w := range inputs {
		w = w[:len(w)&^1]
		ge, gok := japaneseUTF16(w)
		we, wok := bothWays(w)
		if ge != we || gok != wok {
			t.Errorf("%s: japaneseUTF16 = %v %v, both readings read %v %v", name, ge, gok, we, wok)
		}
		le, be := enoughKana(w)
		sevenBit := !bytes.ContainsFunc(w, func(r rune) bool { return r >= 0x80 || r == utf8.RuneError })
		if !le && fullQualifies(w, false, sevenBit) || !be && fullQualifies(w, true, sevenBit) {
			t.Errorf("%s: enoughKana = %v %v, but a reading qualifies", name, le, be)
		}
	}
}

func FuzzJapaneseUTF16(f *testing.F) {
	testutil.AddSeeds(f, "text/*")
	f.Add(u16(strings.Repeat("あ", 10)+strings.Repeat("\U00020000", 40), false))
	f.Fuzz(func(t *testing.T, b []byte) {
		w := b[:min(len(b), sniffWindow)]
		w = w[:len(w)&^1]
		ge, gok := japaneseUTF16(w)
		if we, wok := bothWays(w); ge != we || gok != wok {
			t.Fatalf("japaneseUTF16(% x) = %v %v, both readings read %v %v", w, ge, gok, we, wok)
		}
	})
}
