package format

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/textfold"
)

// twoWalks is what foldLine replaced (issue 35): textfold.Append, then,
// for a line that folding changed, a second walk for its patches. Kept
// as the benchmark's "before" and as a second opinion on foldLine's bytes.
func twoWalks(fold, patches, s []byte, base int, prevEnd *int) ([]byte, []byte) {
	start := len(fold)
	fold = textfold.Append(fold, s)
	if string(fold[start:]) == string(s) {
		return fold, patches
	}
	fpos := base
	runStart, runFold := -1, 0
	origStart := 0
	flush := func(origEnd int) {
		if runStart < 0 {
			return
		}
		patches = binary.AppendUvarint(patches, uint64(runStart-*prevEnd))
		patches = binary.AppendUvarint(patches, uint64(runFold))
		patches = binary.AppendUvarint(patches, uint64(origEnd-origStart))
		patches = append(patches, s[origStart:origEnd]...)
		*prevEnd = runStart + runFold
		runStart = -1
	}
	var sc textfold.Scanner
	sc.Reset(s)
	for {
		if n := sc.SkipSame(); n > 0 {
			flush(sc.End() - n)
			fpos += n
		}
		if !sc.Scan() {
			break
		}
		folded := sc.Folded()
		if sc.Unchanged() {
			flush(sc.Start())
		} else {
			if runStart < 0 {
				runStart, runFold, origStart = fpos, 0, sc.Start()
			}
			runFold += len(folded)
		}
		fpos += len(folded)
	}
	flush(len(s))
	return fold, patches
}

// benchLines is a mix of the lines of Office files: Excel rows, Japanese
// prose with ASCII words, half-width katakana, full-width digits.
var benchLines = []string{
	"見積書\tNo.2024-0153\t株式会社横浜電機 御中\t2024/04/01",
	"ご依頼のありました件につき、下記のとおりお見積り申し上げます。Server の更新と LAN 配線工事を含みます。",
	"ｻｰﾊﾞｰ機器一式\t１式\t１，２００，０００円\t納期：受注後３週間",
	"Quarterly Report Q3 FY2024: Revenue up 12% YoY, Operating Margin 8.4%",
	"2024-06-14 09:12:33 INFO backup completed (files=1532, bytes=48213344)",
	"霞ケ関支店　第３営業部　佐藤　様",
}

// foldThenKeys is the encoder's line before foldLine made its keys
// (stop 44 of bench/small-files.md): foldLine's walk with a plain
// Scanner, then textfold.AppendKeys over the folded line. Kept as the
// benchmark's "before".
func foldThenKeys(sc *textfold.Scanner, fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32) {
	start := len(fold)
	fpos := base
	runStart, runFold := -1, 0
	origStart := 0
	flush := func(origEnd int) {
		if runStart < 0 {
			return
		}
		patches = binary.AppendUvarint(patches, uint64(runStart-*prevEnd))
		patches = binary.AppendUvarint(patches, uint64(runFold))
		patches = binary.AppendUvarint(patches, uint64(origEnd-origStart))
		patches = append(patches, s[origStart:origEnd]...)
		*prevEnd = runStart + runFold
		runStart = -1
	}
	sc.Reset(s)
	for {
		if n := sc.SkipSame(); n > 0 {
			flush(sc.End() - n)
			fold = append(fold, s[sc.End()-n:sc.End()]...)
			fpos += n
		}
		if !sc.Scan() {
			break
		}
		folded := sc.Folded()
		fold = append(fold, folded...)
		if sc.Unchanged() {
			flush(sc.Start())
		} else {
			if runStart < 0 {
				runStart, runFold, origStart = fpos, 0, sc.Start()
			}
			runFold += len(folded)
		}
		fpos += len(folded)
	}
	flush(len(s))
	return fold, patches, textfold.AppendKeys(keys, fold[start:])
}

// BenchmarkFoldLine folds the same lines, records their patches and
// makes their keys in one walk (foldLine), in one walk and a second one
// for the keys (foldThenKeys), and folds them in the two walks that
// foldLine replaced first, without keys.
func BenchmarkFoldLine(b *testing.B) {
	text := []byte(strings.Join(benchLines, "\n"))
	var ks textfold.KeyScanner // the encoder's, reused from line to line
	var sc textfold.Scanner
	for _, bc := range []struct {
		name string
		fn   func(fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32)
	}{
		{"one-walk", func(fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32) {
			return foldLine(&ks, fold, patches, keys, s, base, prevEnd)
		}},
		{"then-keys", func(fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32) {
			return foldThenKeys(&sc, fold, patches, keys, s, base, prevEnd)
		}},
		{"two-walks", func(fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32) {
			fold, patches = twoWalks(fold, patches, s, base, prevEnd)
			return fold, patches, keys
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var fold, patches []byte
			var keys []uint32
			for b.Loop() {
				fold, patches = fold[:0], patches[:0]
				prevEnd := 0
				for _, l := range benchLines {
					fold, patches, keys = bc.fn(fold, patches, keys[:0], []byte(l), len(fold), &prevEnd)
					fold = append(fold, '\n')
				}
			}
		})
	}
}

// TestFoldLineTwoWalks: foldLine writes the bytes of the two walks it
// replaced and the keys of textfold.AppendKeys, line after line.
func TestFoldLineTwoWalks(t *testing.T) {
	var sc textfold.KeyScanner
	var f1, p1, f2, p2 []byte
	var k1 []uint32
	e1, e2 := 0, 0
	for _, l := range append(benchLines, "", "ＡＢＣ", "abc", "見 積", "\xe3\ufe00\x81\x82") {
		start := len(f1)
		f1, p1, k1 = foldLine(&sc, f1, p1, k1[:0], []byte(l), len(f1), &e1)
		f2, p2 = twoWalks(f2, p2, []byte(l), len(f2), &e2)
		if string(f1) != string(f2) || string(p1) != string(p2) || e1 != e2 {
			t.Fatalf("after %q: foldLine gives %q / %x, the two walks %q / %x", l, f1, p1, f2, p2)
		}
		if want := textfold.AppendKeys(nil, f1[start:]); !slices.Equal(k1, want) {
			t.Fatalf("%q: foldLine's keys %x, AppendKeys's %x", l, k1, want)
		}
	}
}
