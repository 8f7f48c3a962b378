package textfold_test

import (
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/textfold"
)

// FuzzKeyScanner walks any text with a KeyScanner as the encoder does
// (SkipSame, then Scan, until the end) and compares it with the walks it
// fuses (stop 44 of bench/small-files.md): the units (start, end, folded
// bytes, unchanged) are a Scanner's, the folded text is Append's, and the
// keys are AppendKeys's of the folded text, appended after the keys
// already in the slice. A scanner reused from the text before must give
// the same.
func FuzzKeyScanner(f *testing.F) {
	for _, s := range []string{
		"", "a", "Abc DEF", "東京都の会議", "カタカナとひらがな ヽヾ ヷヸヹヺ", "ｻｰﾊﾞｰ機器一式\t１式", "見 積　書", "霞ケ関 3カ月 一ヵ月",
		"サーバー ユーザー", "か\u3099 ハ\u309a", "葛\U000E0100飾 神\ufe00", "\xe3\ufe00\x81\x82", "\xe3\x81", "\xff\xfe",
		"2024-06-14 09:12:33 INFO backup", "Ⱥ ſ K", "\u3000、。〆々〇", "𠮷野家", "\ufffd\u2028",
	} {
		f.Add([]byte(s), []byte("前の行 ABC"), uint8(len(s)%4))
	}
	f.Fuzz(func(t *testing.T, text, before []byte, prefix uint8) {
		var ks textfold.KeyScanner
		walk(&ks, before, nil)
		var keys []uint32
		for i := range int(prefix % 8) {
			keys = append(keys, uint32(i)*0x9E3779B9)
		}
		wantKeys := slices.Clone(keys)
		folded, gotKeys := walk(&ks, text, slices.Clip(keys))

		var units, wantUnits []unitOf
		var sc textfold.Scanner
		sc.Reset(text)
		for sc.Scan() {
			wantUnits = append(wantUnits, unitOf{sc.Start(), sc.End(), string(sc.Folded()), sc.Unchanged()})
		}
		ks.Reset(text, nil)
		for {
			if n := ks.SkipSame(); n > 0 {
				for i := ks.End() - n; i < ks.End(); {
					// The run's units are its runes, each unchanged.
					m := 1
					if text[i] >= 0x80 {
						m = 3
					}
					units = append(units, unitOf{i, i + m, string(text[i : i+m]), true})
					i += m
				}
			}
			if !ks.Scan() {
				break
			}
			units = append(units, unitOf{ks.Start(), ks.End(), string(ks.Folded()), ks.Unchanged()})
		}
		if !slices.Equal(units, wantUnits) {
			t.Fatalf("KeyScanner's units of %q: %v, Scanner's %v", text, units, wantUnits)
		}
		if want := textfold.Append(nil, text); string(folded) != string(want) {
			t.Fatalf("KeyScanner folds %q to %q, Append to %q", text, folded, want)
		}
		if wantKeys = textfold.AppendKeys(wantKeys, folded); !slices.Equal(gotKeys, wantKeys) {
			t.Fatalf("KeyScanner's keys of %q (folded %q): %x, AppendKeys's %x", text, folded, gotKeys, wantKeys)
		}
	})
}

type unitOf struct {
	start, end int
	folded     string
	unchanged  bool
}

// walk folds text with ks as the encoder does and returns the folded text
// and keys with the text's keys appended.
func walk(ks *textfold.KeyScanner, text []byte, keys []uint32) ([]byte, []uint32) {
	var folded []byte
	ks.Reset(text, keys)
	for {
		if n := ks.SkipSame(); n > 0 {
			folded = append(folded, text[ks.End()-n:ks.End()]...)
		}
		if !ks.Scan() {
			break
		}
		folded = append(folded, ks.Folded()...)
	}
	return folded, ks.Keys(folded)
}
