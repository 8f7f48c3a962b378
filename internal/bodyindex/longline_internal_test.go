package bodyindex

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// numbered is a stored line with the number search gives it (the segment's
// line number plus its offset in the segment).
type numbered struct {
	place string
	no    int
	text  string
}

// numberedLines reads every line of file name of dir's body index with
// its number, from the parts' segments.
func numberedLines(t *testing.T, dir, name string) []numbered {
	t.Helper()
	f, err := format.OpenFolder(dir)
	if err != nil || f == nil {
		t.Fatalf("OpenFolder = %v, %v", f, err)
	}
	defer f.Close()
	var out []numbered
	for i := 0; i < f.NumParts(); i++ {
		p := f.Part(i)
		files, _ := p.Files()
		segs, err := p.Segments()
		if err != nil {
			t.Fatal(err)
		}
		cache := map[int][]string{}
		for _, s := range segs {
			if files[s.File] != name {
				continue
			}
			lines, err := p.SegmentLines(s, cache)
			if err != nil {
				t.Fatal(err)
			}
			for k, l := range lines {
				out = append(out, numbered{s.Place, s.LineNo + k, l})
			}
		}
	}
	return out
}

// TestIssue36PublishLongLines: whether a file's text is kept in memory,
// read again or streamed, a publish writes the same bytes; a line longer
// than extract.LineMaxRunes (written by an earlier version) is split, a
// continuation line keeps the number of the line it continues, and the
// lines after it keep theirs; Places reads back what was stored.
func TestIssue36PublishLongLines(t *testing.T) {
	long := "行頭" + strings.Repeat("あいうえおabcde", extract.LineMaxRunes/5) + "行末"
	split := extract.AppendLine(nil, long)
	if len(split) != 3 {
		t.Fatalf("the long line splits in %d", len(split))
	}
	stageAll := func(dir string) {
		// An Excel sheet whose row 2 was split by extract.Extract.
		sheet := append(append([]string{"見出し\t金額"}, split...), "合計\t3")
		if _, err := content.WriteFolder(filepath.Join(dir, "表.xlsx"), []extract.Place{{Name: "売上", Lines: sheet}, {Name: "売上[図形]", Lines: []string{"B2\t図"}}}); err != nil {
			t.Fatal(err)
		}
		// A text file written by a version before the cap: its long
		// line is whole in the TSV.
		if _, err := content.WriteFolder(filepath.Join(dir, "古い.txt"), []extract.Place{{Name: "本文", Lines: []string{"一行目", long, "三行目"}}}); err != nil {
			t.Fatal(err)
		}
	}
	wantRows := map[string][]numbered{
		"表.xlsx": {{"売上", 1, "見出し\t金額"}, {"売上", 2, split[0]}, {"売上", 2, split[1]}, {"売上", 2, split[2]}, {"売上", 3, "合計\t3"}, {"売上[図形]", 1, "B2\t図"}},
		"古い.txt": {{"本文", 1, "一行目"}, {"本文", 2, split[0]}, {"本文", 2, split[1]}, {"本文", 2, split[2]}, {"本文", 3, "三行目"}},
	}
	var first map[string]string
	for _, tc := range []struct {
		name         string
		keep, stream int64
	}{
		{"kept in memory", 1 << 40, 1 << 40},
		{"read again", 0, 1 << 40},
		{"streamed", 1 << 40, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oldKeep, oldStream := keepText, streamText
			keepText, streamText = tc.keep, tc.stream
			defer func() { keepText, streamText = oldKeep, oldStream }()
			dir := indextest.TempDir(t)
			stageAll(dir)
			if err := Publish(dir, nil); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				got[e.Name()] = string(b)
			}
			if first == nil {
				first = got
			} else if !reflect.DeepEqual(got, first) {
				t.Errorf("the index differs from the one written with the text kept in memory")
			}
			for name, want := range wantRows {
				if rows := numberedLines(t, dir, name); !reflect.DeepEqual(rows, want) {
					t.Errorf("%s: lines %.60v, want %.60v", name, rows, want)
				}
				places, err := format.ReadFile(dir, name)
				if err != nil {
					t.Fatal(err)
				}
				var lines []string
				for _, p := range places {
					lines = append(lines, p.Lines...)
				}
				var wantLines []string
				for _, r := range want {
					wantLines = append(wantLines, r.text)
				}
				if !reflect.DeepEqual(lines, wantLines) {
					t.Errorf("%s: ReadFile gives %.60q", name, lines)
				}
			}
			// Publishing again (nothing changed) gives the same bytes.
			stageAll(dir)
			if err := Publish(dir, nil); err != nil {
				t.Fatal(err)
			}
			for n, b := range got {
				if c, _ := os.ReadFile(filepath.Join(dir, n)); string(c) != b {
					t.Errorf("%s changed when published again", n)
				}
			}
		})
	}
}

// TestIssue36EncoderSplits: the encoder splits a long line it is handed
// from an index of an earlier version and counts what it wrote, so that
// the file's row matches its parts.
func TestIssue36EncoderSplits(t *testing.T) {
	long := strings.Repeat("字", 3*extract.LineMaxRunes)
	var parts []format.BuiltPart
	enc := format.NewEncoder(func(p format.BuiltPart) error {
		p.Data = slices.Clone(p.Data) // valid until emit returns
		parts = append(parts, p)
		return nil
	})
	enc.Encode([]format.FileText{{Name: "a.txt", Index: 0, Places: []extract.Place{{Name: "本文", Lines: []string{"前", long, "後"}}}}})
	enc.Release()
	if enc.Err != nil {
		t.Fatal(enc.Err)
	}
	want := append(append([]string{"前"}, extract.AppendLine(nil, long)...), "後")
	n := enc.Counts[0]
	text := int64(0)
	for _, l := range want {
		text += int64(len(l)) + 1
	}
	if n.Lines != len(want) || n.Text != text {
		t.Errorf("counts = %+v, want %d lines, %d bytes", n, len(want), text)
	}
	for _, bp := range parts {
		p, err := format.ParsePart("p", bp.Data)
		if err != nil {
			t.Fatal(err)
		}
		for b := 0; b < p.Blocks(); b++ {
			orig, _ := p.Original(b)
			for _, l := range strings.Split(strings.TrimSuffix(string(orig), "\n"), "\n") {
				if r := utf8.RuneCountInString(strings.TrimPrefix(l, extract.ContinuationMark)); r > extract.LineMaxRunes {
					t.Errorf("a stored line of %d runes", r)
				}
			}
		}
	}
}

// TestIssue36ReadPlace: a preview's window of a place, read from the
// blocks that hold it: a split line is its first piece, marked
// Continued, across parts too.
func TestIssue36ReadPlace(t *testing.T) {
	dir := indextest.TempDir(t)
	// 600 lines of 10,000 bytes (about 6 MB: the file spans parts), line
	// 300 and the last one split in three.
	var stored []string
	var want []format.PlaceLine
	for no := 1; no <= 600; no++ {
		line := strings.Repeat(string(rune('a'+no%26)), 10000) + itoa(no)
		if no == 300 || no == 600 {
			line = strings.Repeat("長", 2*extract.LineMaxRunes) + itoa(no)
		}
		pieces := extract.AppendLine(nil, line)
		stored = append(stored, pieces...)
		want = append(want, format.PlaceLine{No: no, Text: pieces[0], Continued: len(pieces) > 1})
	}
	if _, err := content.WriteFolder(filepath.Join(dir, "大.txt"), []extract.Place{{Name: "本文", Lines: stored}, {Name: "注", Lines: []string{"注記"}}}); err != nil {
		t.Fatal(err)
	}
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	if f, _ := format.OpenFolder(dir); f == nil || f.NumParts() < 2 {
		t.Fatalf("the file should span parts")
	} else {
		f.Close()
	}
	for _, tc := range []struct {
		place       string
		first, last int
		want        []format.PlaceLine
	}{
		{"本文", 1, 3, want[:3]},
		{"本文", 0, 1, want[:1]},
		{"本文", 290, 310, want[289:310]},
		{"本文", 300, 300, want[299:300]},
		{"本文", 590, 700, want[589:]},
		{"本文", 601, 700, nil},
		{"注", 1, 5, []format.PlaceLine{{No: 1, Text: "注記"}}},
	} {
		got, total, err := format.ReadPlace(dir, "大.txt", tc.place, tc.first, tc.last)
		if err != nil {
			t.Fatal(err)
		}
		if wantTotal := map[string]int{"本文": 600, "注": 1}[tc.place]; total != wantTotal {
			t.Errorf("ReadPlace(%s, %d, %d): total %d, want %d", tc.place, tc.first, tc.last, total, wantTotal)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ReadPlace(%s, %d, %d) = %d lines %.50v, want %d", tc.place, tc.first, tc.last, len(got), got, len(tc.want))
		}
	}
	// A line in many pieces: the window reads the block of its first
	// piece, not the others.
	many := extract.AppendLine(nil, strings.Repeat("字", 60*extract.LineMaxRunes))
	if _, err := content.WriteFolder(filepath.Join(dir, "長.txt"), []extract.Place{{Name: "本文", Lines: append(many, "次の行")}}); err != nil {
		t.Fatal(err)
	}
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got, total, err := format.ReadPlace(dir, "長.txt", "本文", 1, 2)
	runtime.ReadMemStats(&m1)
	if err != nil || total != 2 || len(got) != 2 || !got[0].Continued || got[1].Text != "次の行" {
		t.Errorf("ReadPlace of a line in %d pieces = %d lines (total %d), %v", len(many), len(got), total, err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 2<<20 {
		t.Errorf("ReadPlace of two lines allocated %d KiB (the file has %d MiB)", alloc>>10, len(many)*extract.LineMaxRunes*3>>20)
	}
	for _, bad := range [][2]string{{"大.txt", "無い"}, {"無い.txt", "本文"}} {
		if _, _, err := format.ReadPlace(dir, bad[0], bad[1], 1, 2); !errors.Is(err, format.ErrNoPlace) {
			t.Errorf("ReadPlace(%s, %s) = %v, want ErrNoPlace", bad[0], bad[1], err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
