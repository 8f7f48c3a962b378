package format

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/textfold"
)

func TestPatchesRoundTrip(t *testing.T) {
	frags := []string{"a", "A", "ａ", "Ａ", "か", "ｶ", "ｶﾞ", "ガ", "ﾞ", "\xff", "Σ", "K", " ", "\t", "見", "\u3000", "\u2028", "1", "１", "ー", "サーバ", "ケ", "髙", "\ufe00"}
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
		var sc textfold.KeyScanner
		for _, l := range lines {
			start := len(folded)
			folded, patches, _ = foldLine(&sc, folded, patches, nil, []byte(l), start, &prevEnd)
			if want := textfold.Append(nil, []byte(l)); string(folded[start:]) != string(want) {
				t.Fatalf("foldLine(%q) folds to %q, want textfold.Append's %q", l, folded[start:], want)
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

func TestLineReader(t *testing.T) {
	lines := []string{"Apple ＡＢＣ", "", "日本語", "ｶﾞｽ代 X", "x", "ＡＡ\tＢＢ", "見積 ", "\U000E0100", "サーバー", "last Line"}
	dir := writeFolder(t, t.TempDir(), testFile{"a.txt", []extract.Place{{Name: "本文", Lines: lines}}})
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := f.Part(0)
	r, err := p.LineReader(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {9, 8, 7, 6, 3, 0}, {1, 5, 5, 2, 7}} {
		for _, li := range order {
			got, err := r.Line(nil, li)
			if err != nil || string(got) != lines[li] {
				t.Fatalf("Line(%d) = %q, %v, want %q", li, got, err, lines[li])
			}
		}
	}
}

// FuzzFoldLine: foldLine folds a line as textfold.Append does, its
// patches give the line back (the one walk that replaced folding and then
// walking the line again for its patches, issue 35), and its keys are
// textfold.AppendKeys's of the folded line, after the keys of the line
// before (the walk that replaced decoding the folded line again for its
// keys, stop 44). The two walks it replaced give the same bytes.
func FuzzFoldLine(f *testing.F) {
	for _, s := range []string{"", "Apple ＡＢＣ", "ｶﾞｽ代 X", "サーバー", "見積 書", "霞ケ関", "\xff\ufe00ﾞ", "a\u3000b",
		"\xe3\ufe00\x81\x82", "ヴァ ヽヾ ヷ カ゛ abc DEF", "令和６年　第３四半期　売上報告書（速報値）"} {
		f.Add(s, "前の行")
	}
	f.Fuzz(func(t *testing.T, line, before string) {
		var sc textfold.KeyScanner
		prevEnd := 0
		folded, patches, keys := foldLine(&sc, nil, nil, nil, []byte(before), 0, &prevEnd)
		if want := textfold.AppendKeys(nil, folded); !slices.Equal(keys, want) {
			t.Fatalf("foldLine(%q) makes keys %x, want %x", before, keys, want)
		}
		folded = append(folded, '\n')
		start, n := len(folded), len(keys)
		f2, p2 := append([]byte(nil), folded...), append([]byte(nil), patches...)
		prevEnd2 := prevEnd
		folded, patches, keys = foldLine(&sc, folded, patches, keys, []byte(line), start, &prevEnd)
		if want := textfold.Append(nil, []byte(line)); string(folded[start:]) != string(want) {
			t.Fatalf("foldLine(%q) folds to %q, want %q", line, folded[start:], want)
		}
		if want := textfold.AppendKeys(nil, folded[start:]); !slices.Equal(keys[n:], want) {
			t.Fatalf("foldLine(%q) makes keys %x, want %x", line, keys[n:], want)
		}
		got, ok := applyPatches(nil, folded, patches)
		if want := before + "\n" + line; !ok || string(got) != want {
			t.Fatalf("patches of %q, %q give %q, %v", before, line, got, ok)
		}
		f2, p2 = twoWalks(f2, p2, []byte(line), start, &prevEnd2)
		if string(f2) != string(folded) || string(p2) != string(patches) || prevEnd2 != prevEnd {
			t.Fatalf("foldLine(%q) gives %q / %x, the two walks %q / %x", line, folded, patches, f2, p2)
		}
	})
}
