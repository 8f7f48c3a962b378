package linedfa

import (
	"testing"
	"unicode/utf8"
)

// inSeqs reports whether the encoding of c is one of seqs' byte strings.
func inSeqs(seqs []byteSeq, c rune) bool {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], c)
	for _, s := range seqs {
		if s.n != n {
			continue
		}
		ok := true
		for i := range n {
			ok = ok && s.r[i].lo <= buf[i] && buf[i] <= s.r[i].hi
		}
		if ok {
			return true
		}
	}
	return false
}

// TestAppendSeqs checks every scalar value against the byte sequences of
// ranges that cross encoded lengths, continuation boundaries and the
// surrogates, and that each sequence's corners decode inside the range.
func TestAppendSeqs(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi rune
	}{
		{"ascii", 'a', 'z'},
		{"one rune", 'あ', 'あ'},
		{"hiragana", 'ぁ', 'ん'},
		{"all", 0, maxRune},
		{"lengths", 0x70, 0x10010},
		{"continuation bounds", 0x3041, 0x30FE},
		{"across surrogates", 0xD000, 0xE100},
		{"supplementary", 0x1F600, 0x2A6DF},
		{"two-byte edge", 0x7FF, 0x800},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seqs []byteSeq
			for _, r := range scalarRanges([]rune{tt.lo, tt.hi}) {
				seqs = appendSeqs(seqs, r)
			}
			for c := rune(0); c <= maxRune; c++ {
				if c >= surrLo && c <= surrHi {
					continue
				}
				want := tt.lo <= c && c <= tt.hi
				if got := inSeqs(seqs, c); got != want {
					t.Fatalf("rune %U: in sequences = %v, want %v", c, got, want)
				}
			}
			for _, s := range seqs {
				var lo, hi [utf8.UTFMax]byte
				for i := range s.n {
					lo[i], hi[i] = s.r[i].lo, s.r[i].hi
				}
				for _, b := range [][]byte{lo[:s.n], hi[:s.n]} {
					c, n := utf8.DecodeRune(b)
					if n != s.n || c == utf8.RuneError || c < tt.lo || c > tt.hi {
						t.Errorf("sequence %v: corner % x decodes to %U (%d bytes), outside [%U, %U]", s, b, c, n, tt.lo, tt.hi)
					}
				}
			}
		})
	}
}

func TestScalarRanges(t *testing.T) {
	tests := []struct {
		name  string
		pairs []rune
		want  []runeRange
	}{
		{"merge", []rune{'c', 'd', 'a', 'b', 'x', 'x'}, []runeRange{{'a', 'd'}, {'x', 'x'}}},
		{"surrogates", []rune{0xD7F0, 0xE010}, []runeRange{{0xD7F0, 0xD7FF}, {0xE000, 0xE010}}},
		{"only surrogates", []rune{0xD800, 0xDFFF}, nil},
		{"clamp", []rune{0x10FFF0, 0x7FFFFFFF}, []runeRange{{0x10FFF0, maxRune}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scalarRanges(tt.pairs)
			if len(got) != len(tt.want) {
				t.Fatalf("scalarRanges(%v) = %v, want %v", tt.pairs, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("scalarRanges(%v) = %v, want %v", tt.pairs, got, tt.want)
				}
			}
		})
	}
}
