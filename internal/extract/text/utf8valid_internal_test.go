package text

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/testutil"
)

// checkValid compares validUTF8 with utf8.Valid on seq alone and inside
// ASCII at every offset around the 16-byte chunks validUTF8 reads.
func checkValid(t *testing.T, seq []byte) {
	t.Helper()
	pad := []byte(strings.Repeat("a", 40))
	for _, at := range []int{-1, 0, 1, 13, 14, 15, 16, 17, 30, 31} {
		b := seq
		if at >= 0 {
			b = append(append(append([]byte(nil), pad[:at]...), seq...), pad[:at%7]...)
		}
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(% x) = %v, utf8.Valid %v", b, got, want)
		}
	}
}

// TestValidUTF8 checks validUTF8 against utf8.Valid on every sequence of
// one to three bytes, every four-byte sequence from a lead byte F0–F7 with
// second bytes all and the rest at the edges of the continuation range,
// and random text of Japanese, ASCII and broken bytes.
func TestValidUTF8(t *testing.T) {
	for a := range 256 {
		checkValid(t, []byte{byte(a)})
		for b := range 256 {
			checkValid(t, []byte{byte(a), byte(b)})
			if a < 0x80 && b < 0x80 {
				continue
			}
			for c := range 256 {
				s := []byte{byte(a), byte(b), byte(c)}
				if got, want := validUTF8(s), utf8.Valid(s); got != want {
					t.Fatalf("validUTF8(% x) = %v, utf8.Valid %v", s, got, want)
				}
			}
		}
	}
	edges := []byte{0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0}
	for a := 0xF0; a <= 0xF7; a++ {
		for b := range 256 {
			for _, c := range edges {
				for _, d := range edges {
					checkValid(t, []byte{byte(a), byte(b), c, d})
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"漢字", "かな", "a", "0123456789", " ", "\n", "\U0001F600", "é", "\xed\xa0\x80", "\xe0\x80\xaf", "\xf4\x90\x80\x80", "\x80", "\xe3\x81"}
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		for k := rng.IntN(40); k > 0; k-- {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(4) > 0 && !utf8.ValidString(p) {
				p = "x"
			}
			sb.WriteString(p)
		}
		checkValid(t, []byte(sb.String()))
	}
}

func FuzzValidUTF8(f *testing.F) {
	testutil.AddSeeds(f, "text/*")
	f.Add([]byte("漢字かなabc\xed\xa0\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(% x) = %v, utf8.Valid %v", b, got, want)
		}
	})
}

// BenchmarkValidUTF8 compares validUTF8 with utf8.Valid on 20 KB of
// Japanese text with digits and ASCII words, as the small-file tree's.
func BenchmarkValidUTF8(b *testing.B) {
	data := []byte(strings.Repeat("- 6月7日の保証も計画もＮＯ．119明細中村様や2月18日や対応します。backup OK\n", 200))
	for _, v := range []struct {
		name string
		f    func([]byte) bool
	}{{"validUTF8", validUTF8}, {"utf8.Valid", utf8.Valid}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				v.f(data)
			}
		})
	}
}
