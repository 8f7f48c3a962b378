package format

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// stableInput is a deterministic mix of text that exercises every path of
// the encoder: folding (width, case, kana marks, spaces, long vowels,
// selectors, invalid bytes), patches, continuation lines, many places,
// and sizes from a part of one block to parts of MaxBlocks blocks (every
// mask width).
func stableInput() [][]FileText {
	frags := []string{"a", "A", "ａ", "Ａ", "か", "ｶ", "ｶﾞ", "ガ", "ﾞ", "\xff", "Σ", "K", " ", "\t", "見", "\u3000", "\u2028",
		"1", "１", "ー", "サーバー", "ケ", "髙", "\ufe00", "見積書", "株式会社", "の", "Report", "東京都", "2024年", "ｻｰﾊﾞｰ", "霞ケ関"}
	r := rand.New(rand.NewPCG(35, 21))
	line := func() string {
		var b strings.Builder
		for k := r.IntN(60); k > 0; k-- {
			b.WriteString(frags[r.IntN(len(frags))])
		}
		if r.IntN(50) == 0 {
			return extract.ContinuationMark + b.String()
		}
		return b.String()
	}
	var chunks [][]FileText
	index := 0
	for _, size := range []int{1, 200, 2000, 20000, 40000} {
		var texts []FileText
		for f := 0; f < 3; f++ {
			var places []extract.Place
			for p := 0; p < 1+r.IntN(4); p++ {
				pl := extract.Place{Name: fmt.Sprintf("シート%d", p)}
				for l := 1 + r.IntN(size); l > 0; l-- {
					pl.Lines = append(pl.Lines, line())
				}
				places = append(places, pl)
			}
			texts = append(texts, FileText{Name: fmt.Sprintf("f%d.xlsx", index), Index: index, Places: places})
			index++
		}
		chunks = append(chunks, texts)
	}
	return chunks
}

// TestEncoderBytesStable pins the bytes the encoder writes for
// stableInput (a digest of every part, in order, with its range, and of
// the counts): a change that makes the encoder faster must not change a
// byte of the body index (issue 35). -update rewrites the golden file
// only when the format changes on purpose.
func TestEncoderBytesStable(t *testing.T) {
	var out strings.Builder
	enc := NewEncoder(func(p BuiltPart) error {
		fmt.Fprintf(&out, "part %x %d bytes sha256 %x files %d:%d-%d:%d\n", p.ID, len(p.Data), sha256.Sum256(p.Data), p.FirstFile, p.FirstLine, p.LastFile, p.EndLine)
		return nil
	})
	n := 0
	for _, texts := range stableInput() {
		enc.Encode(texts)
		n += len(texts)
	}
	if enc.Err != nil {
		t.Fatal(enc.Err)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&out, "file %d lines %d text %d folded %d\n", i, enc.Counts[i].Lines, enc.Counts[i].Text, enc.Folded[i])
	}
	testutil.Golden(t, testutil.GoldenPath(t, "digest"), []byte(out.String()))
}
