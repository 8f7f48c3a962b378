package bodyindex

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPatchesRoundTrip(t *testing.T) {
	frags := []string{"a", "A", "ａ", "Ａ", "か", "ｶ", "ｶﾞ", "ガ", "ﾞ", "\xff", "Σ", "K", " ", "\t", "見", "\u3000", "\u2028", "1", "１"}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 2000; n++ {
		var lines []string
		for l := 0; l < 1+r.IntN(5); l++ {
			var b strings.Builder
			for k := 0; k < r.IntN(10); k++ {
				b.WriteString(frags[r.IntN(len(frags))])
			}
			lines = append(lines, b.String())
		}
		var folded, orig, patches []byte
		prevEnd := 0
		for _, l := range lines {
			start := len(folded)
			folded = AppendFold(folded, []byte(l))
			if string(folded[start:]) != l {
				patches = appendPatches(patches, []byte(l), start, &prevEnd)
			}
			folded = append(folded, '\n')
			orig = append(append(orig, l...), '\n')
		}
		got, ok := applyPatches(nil, folded, patches)
		if !ok || string(got) != string(orig) {
			t.Fatalf("lines %q: patches give %q, %v", lines, got, ok)
		}
	}
}
