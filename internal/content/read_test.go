package content_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// writeRaw writes a per-file folder with place TSVs of the given bytes,
// as any version may have written them.
func writeRaw(t *testing.T, tsvs map[string]string, order []string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "a.txt")
	os.MkdirAll(dir, 0o755)
	var m strings.Builder
	for _, name := range order {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(tsvs[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		m.WriteString(name + "\n")
	}
	os.WriteFile(filepath.Join(dir, content.ManifestName), []byte(m.String()), 0o644)
	return dir
}

// eachLine collects EachLine's lines as places.
func eachLine(t *testing.T, dir string) []extract.Place {
	t.Helper()
	var out []extract.Place
	err := content.EachLine(dir, func(place, line string) error {
		if n := len(out); n == 0 || out[n-1].Name != place {
			out = append(out, extract.Place{Name: place})
		}
		out[len(out)-1].Lines = append(out[len(out)-1].Lines, strings.Clone(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadFolderLines: ReadFolder and EachLine read the same lines from
// every shape of place TSV, a long line of an earlier version split as
// extract.Extract splits one now.
func TestReadFolderLines(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	long := strings.Repeat("長い行", extract.LineMaxRunes/2)
	cont := extract.ContinuationMark + "続き"
	huge := strings.Repeat("百万字のＡ行", 60000)
	edge := strings.Repeat("x", 4*extract.LineMaxRunes+64-1)
	for _, tc := range []struct {
		name string
		tsv  string
		want []string
	}{
		{"crlf", bom + "a\tb\r\n\r\nc\r\n", []string{"a\tb", "", "c"}},
		{"lf, no bom", "a\nb\n", []string{"a", "b"}},
		{"no final line end", bom + "a\r\nb", []string{"a", "b"}},
		{"empty lines at the end", bom + "a\r\n\r\n", []string{"a", ""}},
		{"bom only", bom, nil},
		{"continuation line kept", bom + "a\r\n" + cont + "\r\n", []string{"a", cont}},
		{"long line of an earlier version", bom + "x\r\n" + long + "\r\ny\r\n", append(append([]string{"x"}, extract.AppendLine(nil, long)...), "y")},
		{"long line first", bom + long + "\r\n", extract.AppendLine(nil, long)},
		{"long continuation of an earlier version", bom + "a\r\n" + cont + long + "\r\n", append([]string{"a"}, extract.AppendStored(nil, cont+long)...)},
		{"a megabyte line", bom + huge + "\r\nz\r\n", append(extract.AppendLine(nil, huge), "z")},
		// The CR is the last byte of a full read buffer, its LF the
		// first of the next read.
		{"CR at the end of the read buffer", bom[:0] + edge + "\r\nz", append(extract.AppendLine(nil, edge), "z")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeRaw(t, map[string]string{"本文.tsv": tc.tsv, "脚注.tsv": bom + "注\r\n"}, []string{"本文.tsv", "脚注.tsv"})
			want := []extract.Place{{Name: "本文", Lines: tc.want}, {Name: "脚注", Lines: []string{"注"}}}
			got, err := content.ReadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ReadFolder = %.40q, want %.40q", got, want)
			}
			if tc.want == nil {
				want = want[1:] // EachLine gives no place without a line
			}
			if got := eachLine(t, dir); !reflect.DeepEqual(got, want) {
				t.Errorf("EachLine = %.40q, want %.40q", got, want)
			}
			for _, p := range got {
				for _, l := range p.Lines {
					if n := utf8.RuneCountInString(strings.TrimPrefix(l, extract.ContinuationMark)); n > extract.LineMaxRunes {
						t.Errorf("a line of %d runes", n)
					}
				}
			}
		})
	}
}

func TestReadFolderUpTo(t *testing.T) {
	dir := writeRaw(t, map[string]string{"a.tsv": "12345\n", "b.tsv": "6789\n"}, []string{"a.tsv", "b.tsv"})
	for _, tc := range []struct {
		max int64
		big bool
	}{{-1, false}, {11, false}, {10, true}, {3, true}} {
		places, big, err := content.ReadFolderUpTo(dir, tc.max)
		if err != nil || big != tc.big || (!big && len(places) != 2) || (big && places != nil) {
			t.Errorf("ReadFolderUpTo(%d) = %d places, %v, %v; want big %v", tc.max, len(places), big, err, tc.big)
		}
	}
}

// TestEachLineHoldsNoLine: a 16 MB line that an earlier version wrote
// whole is split while it is read, never held: EachLine allocates a few
// pieces' worth of it.
func TestEachLineHoldsNoLine(t *testing.T) {
	line := strings.Repeat("長い一行", 1<<20+3)
	dir := writeRaw(t, map[string]string{"本文.tsv": "\xef\xbb\xbf" + line + "\r\nz\r\n"}, []string{"本文.tsv"})
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	n, last := 0, ""
	err := content.EachLine(dir, func(_, l string) error {
		n++
		if len(l) < 10 {
			last = strings.Clone(l)
		}
		return nil
	})
	runtime.ReadMemStats(&m1)
	if want := len(extract.AppendLine(nil, line)) + 1; err != nil || n != want || last != "z" {
		t.Fatalf("EachLine: %d lines, last %q, %v; want %d", n, last, err, want)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 4<<20 {
		t.Errorf("EachLine of a %d MB line allocated %d MB", len(line)>>20, alloc>>20)
	}
}
