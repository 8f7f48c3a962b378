package fontprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/testutil"
)

func TestGlyphNameText(t *testing.T) {
	tests := []struct{ name, want string }{
		{"A", "A"},
		{"Zhecyrillic", "Ж"},
		{"afii10070", "е"},
		{"eacute", "é"},
		{"fi", "fi"},
		{"ffl", "ffl"},
		{"f_f_i", "ffi"},
		{"a.sc", "a"},
		{"one.oldstyle", "1"},
		{"uni65E5", "日"},
		{"uni65E5672C", "日本"},
		{"u20B9F", "𠮟"},
		{"u1F600", "😀"},
		{"T_uni0301", "T\u0301"},
		{"uni65e5", ""},  // lower-case hex is no name
		{"uniD800", ""},  // surrogate
		{"u110000", ""},  // past Unicode
		{"uni65E", ""},   // not groups of four
		{"g12", ""},      // a subset's private names
		{"cid01234", ""}, // a CID font's
		{"glyph7", ""},
		{".notdef", ""},
		{"f_g12", ""}, // one unknown component: no text
		{"", ""},
	}
	for _, tt := range tests {
		if got := GlyphNameText(tt.name); got != tt.want {
			t.Errorf("GlyphNameText(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestFontProgram maps codes to text through the font programs of the
// fixtures (../testdata/fontprog, from ../testdata/gen.sh): a TrueType subset with and
// without 'post' names, reached through its (3,0) cmap, and a Type 1
// subset's built-in encoding, as Type 1 and as bare CFF.
func TestFontProgram(t *testing.T) {
	tests := []struct {
		file  string
		codes map[uint32]string
	}{
		{"dejavu-post.ttf", map[uint32]string{1: "L", 2: "o", 11: "ff", 0x20: "Q", 0x22: "2", 0: "", 0xff: ""}},
		{"dejavu-nopost.ttf", map[uint32]string{1: "", 2: "", 0x20: ""}},
		{"noto-type1.pfa", map[uint32]string{1: "D", 5: " ", 12: "ffi", 25: "8", 0: "", 200: ""}},
		{"noto-type1c.cff", map[uint32]string{1: "D", 5: " ", 12: "ffi", 25: "8", 0: "", 200: ""}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fontprog", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			p := Parse(b)
			if p == nil {
				t.Fatal("no program")
			}
			for code, want := range tt.codes {
				if got := p.Text(code); got != want {
					t.Errorf("code %#x = %q, want %q", code, got, want)
				}
			}
		})
	}
	for _, b := range [][]byte{nil, []byte("OTTO"), []byte("%!PS-AdobeFont"), {0x80, 1, 0xff, 0xff, 0xff, 0xff}, []byte("\x01\x00\x04\x02CFF")} {
		if p := Parse(b); p != nil {
			t.Errorf("Parse(%q) = %v, want nil", b, p)
		}
	}
}

// FuzzFontProgram feeds arbitrary font programs: parsing and mapping
// every one-byte code and some CIDs must not panic nor give a control
// character. Seeds: ../testdata/fontprog.
func FuzzFontProgram(f *testing.F) {
	testutil.AddSeeds(f, filepath.Join("..", "..", "testdata", "fontprog", "*"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := Parse(b)
		if p == nil {
			return
		}
		for code := uint32(0); code < 0x140; code++ {
			if got := p.Text(code); strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 && r != ' ' }) {
				t.Fatalf("code %#x: control character in %q", code, got)
			}
		}
	})
}

// TestNumericNames: which fonts' /Differences names are read as numbers,
// as pdftotext reads them (poppler's testForNumericNames and
// parseNumericName), and their text.
func TestNumericNames(t *testing.T) {
	seq := func(start int, names ...string) map[int]string {
		m := map[int]string{}
		for i, n := range names {
			m[start+i] = n
		}
		return m
	}
	tests := []struct {
		name     string
		names    map[int]string
		runStart int
		numeric  bool
		hex      bool
		text     string // of the names in code order
	}{
		{"decimal after a letter", seq(1, "a76", "a111", "a114", "a101", "a109"), 1, true, false, "Lorem"},
		{"decimal after two letters", seq(0, "cd72", "cd105"), 0, true, false, "Hi"},
		{"bare decimal", seq(1, "72", "105"), 1, true, false, "Hi"},
		{"hex after a letter", seq(1, "G4C", "G6F", "G72", "G65", "G6D"), 1, true, true, "Lorem"},
		{"bare hex", seq(1, "4C", "6F", "72"), 1, true, true, "Lor"},
		{"trailing junk", seq(1, "g72#", "g105"), 1, true, false, "Hi"},
		{"control characters have no text", seq(1, "g12", "g65"), 1, true, false, "A"},
		{"runs from 65: a few renamed glyphs", seq(65, "g65", "g66"), 65, false, false, ""},
		{"cid names: three letters", seq(1, "cid65", "cid66"), 1, false, false, ""},
		{"one name is no number", seq(1, "g65", "A"), 1, false, false, ""},
		{"a suffix", seq(1, "g65.sc", "g66"), 1, false, false, ""},
		{"hex past two digits", seq(1, "G4C", "G123"), 1, false, false, ""},
		{"no names", nil, 0, false, false, ""},
	}
	for _, tt := range tests {
		numeric, hex := NumericNames(tt.names, tt.runStart)
		if numeric != tt.numeric || hex != tt.hex {
			t.Errorf("%s: NumericNames = %v, %v; want %v, %v", tt.name, numeric, hex, tt.numeric, tt.hex)
			continue
		}
		if !numeric {
			continue
		}
		var b strings.Builder
		for code := range 300 {
			if n, ok := tt.names[code]; ok {
				b.WriteString(NumericNameText(n, hex))
			}
		}
		if b.String() != tt.text {
			t.Errorf("%s: text %q, want %q", tt.name, b.String(), tt.text)
		}
	}
}

// FuzzNumericNames: any names, no panic, no text that is none.
func FuzzNumericNames(f *testing.F) {
	f.Add("a65", "G4C", 1)
	f.Add("4C", "cid7", 0)
	f.Fuzz(func(t *testing.T, a, b string, start int) {
		names := map[int]string{0: a, 1: b}
		numeric, hex := NumericNames(names, start)
		for _, n := range names {
			if tx := NumericNameText(n, hex); numeric && NoText(tx) {
				t.Fatalf("%q: %q", n, tx)
			}
		}
	})
}
