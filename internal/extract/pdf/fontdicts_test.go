package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/pdf/pdfobj"
)

// TestFontDicts reads fonts without a ToUnicode map whose codes look like
// text to the engine (issue 33), fixtures mkfonts.py wrote and qpdf
// rewrote (testdata/gen.sh): a Type 3 font's /Differences names (Adobe
// Glyph List names, ligatures f_f_i and T_h, uniXXXXXXXX; g12 has no text
// and is dropped), Helvetica's /Differences names the engine does not
// read (f_f_i, T_h, uni30C630C8), and TrueType subsets whose codes are given in order of
// use (the engine reads "!\"#$%" for "Lorem": pdftotext too), told by
// their 'post' names or their (3,1) cmap; in object streams, with a
// cross-reference section that points nowhere, after a mail header; CID
// TrueType fonts whose ToUnicode map is broken or missing; simple fonts
// whose map is broken.
func TestFontDicts(t *testing.T) {
	type3 := []string{"The office 日本 TYPETHREE テfl", "DIFFffi The テト DIFFSAA"}
	shifted := []string{"Lorem ipsum dolor SHIFTEDAA", "Quick brown fox SHIFTEDBB"}
	brokenMap := []string{
		"Lorem ipsum office affluent café Привет TRUETYPEZQ 1234",
		"Dolor sit amet official 本語の見積書日\u3000TYPEONEQX 5678",
	}
	tests := []struct {
		file string
		page []string
	}{
		{"py-type3.pdf", type3},
		{"py-type3-junk.pdf", type3},
		{"py-shifted.pdf", shifted},
		{"py-shifted-objstm.pdf", shifted},
		{"py-shifted-badxref.pdf", shifted},
		// Encrypted with an empty user password, fonts in object
		// streams: AES-128, RC4, AES-256 (pdfobj decrypts them).
		{"py-shifted-aes128.pdf", shifted},
		{"py-shifted-rc4.pdf", shifted},
		{"py-shifted-rc40.pdf", shifted},
		{"py-shifted-aes256.pdf", shifted},
		// CID TrueType fonts, Identity: a ToUnicode map giving Hangul
		// for Russian (pdftotext gives the Hangul), and none, glyph
		// indexes in the hundreds (pdftotext gives nothing; the
		// engine gives "ΩϓφϕϠώωϊϒϡ&,'121(%%", no control character).
		{"py-cid.pdf", []string{"Привет мир CIDHANGULAA", "Добрый день CIDNONEBB"}},
		{"py-cid-aes256.pdf", []string{"Привет мир CIDHANGULAA", "Добрый день CIDNONEBB"}},
		// Simple fonts with a ToUnicode map the glyph names contradict
		// (qdfedit.py brokenmap): Hangul for a TrueType font's Latin
		// and Cyrillic, Greek for a Type 1 (-1c: Type1C) font's Latin,
		// both remapped to the glyphs' names (pdftotext gives the
		// Hangul and Greek); a kanji font's map shifted by one glyph
		// is Japanese for Japanese glyphs and stays as it is.
		{"qpdf-brokenmap.pdf", brokenMap},
		{"qpdf-brokenmap1c.pdf", brokenMap},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) { checkOnePage(t, tt.file, tt.page) })
	}
}

// TestNumericNames: Type 3 fonts whose glyph names are numbers
// (mkfonts.py numeric), one a page: decimal (a76) and hexadecimal (G4C)
// names read as their characters, as pdftotext reads them; cid76 is no
// number (pdftotext passes its codes through, \x01–\x08) and its page
// gives nothing.
func TestNumericNames(t *testing.T) {
	r, err := readFixture(t, "py-numeric.pdf")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"ページ001": {"Lorem NUMDECAA"}, "ページ002": {"Hex HEXNUMBB"}}
	if got := places(r); !reflect.DeepEqual(got, want) {
		t.Errorf("places =\n%q\nwant\n%q", got, want)
	}
}

// TestCIDKeyedCFF: CID-keyed CFF fonts (FontFile3 /CIDFontType0C) without
// a ToUnicode map, whose CIDs the engine reads by the ordering their
// /CIDSystemInfo declares with tables of its own (mkfonts.py cidcff: one
// page each for Adobe-Japan1, -GB1, -CNS1 and -Korea1, the same CIDs):
// the reader adds nothing and needs no table. pdftotext gives nothing
// without poppler-data's language packs.
func TestCIDKeyedCFF(t *testing.T) {
	r, err := readFixture(t, "py-cidcff.pdf")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"ページ001": {"ABC あいう 辻蔦綴"},
		"ページ002": {"ABC >@B 蒲埔朴"},
		"ページ003": {"ABC 末正民 最凱割"},
		"ページ004": {"ABC ²⁴₁ 퀴퀵퀸"},
	}
	if got := places(r); !reflect.DeepEqual(got, want) {
		t.Errorf("places =\n%q\nwant\n%q", got, want)
	}
}

// TestPageDicts: which fonts call for reading a page character by
// character, and the text of their codes; fonts with a ToUnicode map, or
// whose names the engine reads, do not.
func TestPageDicts(t *testing.T) {
	tests := []struct {
		file string
		want pageDicts
	}{
		{"py-type3.pdf", pageDicts{"": {names: map[uint32]string{
			2: "Th", 3: "e", 4: " ", 5: "o", 6: "ffi", 7: "c", 8: "日本",
			0x41: "T", 0x42: "Y", 0x43: "P", 0x44: "E", 0x45: "H", 0x46: "R", 0x47: "テ", 0x48: "fl",
		}}, "Helvetica": {names: map[uint32]string{1: "ffi", 2: "Th", 3: "テト"}}}},
		// Program fonts: no names of their own in the dictionary.
		{"py-shifted.pdf", pageDicts{"DejaVuSans": {names: map[uint32]string{}}}},
		{"qpdf-notounicode.pdf", pageDicts{"DejaVuSerif": {names: map[uint32]string{}}}},
		// A CID font without a map reads glyph indexes; one whose map
		// gives Hangul for the glyphs of Cyrillic letters is broken.
		{"py-cid.pdf", pageDicts{
			"DejaVuSansCID": {names: map[uint32]string{}, cid: true},
			"DejaVuSans": {cid: true, remap: map[rune]string{
				0xac00 + 'П': "П", 0xac00 + 'р': "р", 0xac00 + 'и': "и", 0xac00 + 'в': "в", 0xac00 + 'е': "е",
				0xac00 + 'т': "т", 0xac00 + ' ': " ", 0xac00 + 'м': "м", 0xac00 + 'C': "C", 0xac00 + 'I': "I",
				0xac00 + 'D': "D", 0xac00 + 'H': "H", 0xac00 + 'A': "A", 0xac00 + 'N': "N", 0xac00 + 'G': "G",
				0xac00 + 'U': "U", 0xac00 + 'L': "L",
			}},
		}},
		// A sound map: the same fixture's map checked against itself.
		{"fpdf-ipag.pdf", nil},
		// ToUnicode maps everywhere; Helvetica's WinAnsi the engine reads.
		{"lo-glyphs.pdf", nil},
		// Simple fonts whose maps give Hangul and Greek for Latin
		// glyph names; the kanji font's map stays (Japanese for
		// Japanese glyphs).
		{"qpdf-brokenmap1c.pdf", pageDicts{
			"DejaVuSerif":                  {remap: hangulLatin},
			"NotoSerifCJKjp-Regular-VKana": {remap: greekLatin},
		}},
		{"qpdf-signature.pdf", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, size := openTestdata(t, tt.file)
			d := docDicts{r: f, size: size}
			got := d.page(0)
			if len(got) != len(tt.want) {
				t.Errorf("page(0) has %d fonts, want %d (err %v)", len(got), len(tt.want), d.err)
			}
			for name, w := range tt.want {
				if g := got[name]; g == nil || !reflect.DeepEqual(*g, *w) {
					t.Errorf("font %q = %+v, want %+v", name, g, w)
				}
			}
		})
	}
}

func TestFontNames(t *testing.T) {
	tests := []struct {
		name   string
		font   pdfobj.Font
		names  map[uint32]string
		needed bool
	}{
		{"with ToUnicode", pdfobj.Font{Subtype: "Type3", ToUnicode: true, Differences: map[int]string{1: "A"}}, nil, false},
		{"Type 3 AGL names", pdfobj.Font{Subtype: "Type3", Differences: map[int]string{1: "A", 2: "g7"}}, map[uint32]string{1: "A"}, true},
		{"Type 3 no text", pdfobj.Font{Subtype: "Type3", Differences: map[int]string{2: "g7", 3: "space.control"}}, map[uint32]string{3: " "}, true},
		{"Type 3 unknown names", pdfobj.Font{Subtype: "Type3", Differences: map[int]string{2: "g7"}}, map[uint32]string{}, false},
		{"Type1 names the engine reads", pdfobj.Font{Subtype: "Type1", Differences: map[int]string{2: "fi", 65: "A", 66: "uni30C6"}}, map[uint32]string{2: "fi", 65: "A", 66: "テ"}, false},
		{"Type1 ligature of components", pdfobj.Font{Subtype: "Type1", Differences: map[int]string{2: "f_f_i"}}, map[uint32]string{2: "ffi"}, true},
		{"Type 3 numeric names", pdfobj.Font{Subtype: "Type3", Differences: map[int]string{1: "a72", 2: "a105"}, DifferencesStart: 1}, map[uint32]string{1: "H", 2: "i"}, true},
		{"Type 3 numbers from 65", pdfobj.Font{Subtype: "Type3", Differences: map[int]string{65: "a72", 66: "a105"}, DifferencesStart: 65}, map[uint32]string{}, false},
		{"Type1 hex names", pdfobj.Font{Subtype: "Type1", Differences: map[int]string{1: "G48", 2: "G4E"}, DifferencesStart: 1}, map[uint32]string{1: "H", 2: "N"}, true},
		{"Type1 control name", pdfobj.Font{Subtype: "Type1", Differences: map[int]string{2: "uni0002_uni0003"}}, map[uint32]string{}, false},
		{"TrueType symbolic embedded", pdfobj.Font{Subtype: "TrueType", FontFile: "FontFile2", Flags: pdfobj.Symbolic, HasEncoding: true, Encoding: "WinAnsiEncoding"}, map[uint32]string{}, true},
		{"TrueType no encoding embedded", pdfobj.Font{Subtype: "TrueType", FontFile: "FontFile2", Flags: 32}, map[uint32]string{}, true},
		{"TrueType WinAnsi embedded", pdfobj.Font{Subtype: "TrueType", FontFile: "FontFile2", Flags: 32, HasEncoding: true, Encoding: "WinAnsiEncoding"}, map[uint32]string{}, false},
		{"TrueType symbolic not embedded", pdfobj.Font{Subtype: "TrueType", Flags: pdfobj.Symbolic}, map[uint32]string{}, false},
		{"Type0", pdfobj.Font{Subtype: "Type0", CIDSubtype: "CIDFontType2", CIDToGIDMap: "Identity"}, map[uint32]string{}, false},
		{"Type0 Identity embedded", pdfobj.Font{Subtype: "Type0", Encoding: "Identity-H", CIDSubtype: "CIDFontType2", CIDToGIDMap: "Identity", FontFile: "FontFile2"}, map[uint32]string{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names, needed := fontNames(tt.font)
			if !reflect.DeepEqual(names, tt.names) || needed != tt.needed {
				t.Errorf("fontNames = %v, %v, want %v, %v", names, needed, tt.names, tt.needed)
			}
		})
	}
}

func TestEngineFontName(t *testing.T) {
	tests := []struct {
		font pdfobj.Font
		want string
	}{
		{pdfobj.Font{Subtype: "TrueType", BaseFont: "BAAAAA+DejaVuSans"}, "DejaVuSans"},
		{pdfobj.Font{Subtype: "TrueType", BaseFont: "DejaVuSans"}, "DejaVuSans"},
		{pdfobj.Font{Subtype: "Type1", BaseFont: "abcdef+Times"}, "abcdef+Times"},
		{pdfobj.Font{Subtype: "Type3", BaseFont: "T3Font"}, ""},
	}
	for _, tt := range tests {
		if got := engineFontName(tt.font); got != tt.want {
			t.Errorf("engineFontName(%+v) = %q, want %q", tt.font, got, tt.want)
		}
	}
}

// TestParseToUnicode reads the sections of ToUnicode CMaps as writers
// give them.
func TestParseToUnicode(t *testing.T) {
	tests := []struct {
		in   string
		want map[uint32]string
	}{
		{"2 beginbfchar\n<0003> <0041>\n<0004> <D842DF9F>\nendbfchar", map[uint32]string{3: "A", 4: "𠮟"}},
		{"1 beginbfrange\n<0010> <0012> <0061>\nendbfrange", map[uint32]string{0x10: "a", 0x11: "b", 0x12: "c"}},
		{"1 beginbfrange\n<20> <21> [<0066 0066 0069> <3042>]\nendbfrange", map[uint32]string{0x20: "ffi", 0x21: "あ"}},
		{"% comment beginbfchar\n1 beginbfchar <01> <0041> endbfchar 1 beginbfrange <05> <04> <0041> endbfrange", map[uint32]string{1: "A"}},
		{"1 beginbfchar <01> <zz> endbfchar", map[uint32]string{}},
		{"1 beginbfrange <0000> <FFFFFF> <0041> endbfrange", map[uint32]string{}},
		{"", map[uint32]string{}},
	}
	for _, tt := range tests {
		if got := parseToUnicode([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseToUnicode(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseToUnicode feeds arbitrary CMaps: no panic, at most
// maxCMapCodes codes.
func FuzzParseToUnicode(f *testing.F) {
	f.Add([]byte("2 beginbfchar\n<0003> <0041>\n<0004> <D842DF9F>\nendbfchar 1 beginbfrange <20> <21> [<0066> <3042>] endbfrange"))
	f.Add([]byte("1 beginbfrange\n<0010> <0012> <0061>\nendbfrange"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m := parseToUnicode(b); len(m) > maxCMapCodes {
			t.Fatalf("%d codes", len(m))
		}
	})
}

// panicReader fails as no reader should: the font dictionaries' reader
// must leave the page to the engine, not take the worker down.
type panicReader struct{}

func (panicReader) ReadAt([]byte, int64) (int, error) { panic("reader panic") }

func TestPageDictsRecovers(t *testing.T) {
	d := docDicts{r: panicReader{}, size: 1 << 20}
	if got := d.page(0); got != nil || d.err == nil {
		t.Errorf("page(0) = %v, err %v; want nil and the panic as the error", got, d.err)
	}
	if got := d.page(1); got != nil {
		t.Errorf("page(1) after a panic = %v, want nil", got)
	}
}

// shiftedRemap is the remapping of a map that gives each character of
// text plus by.
func shiftedRemap(text string, by rune) map[rune]string {
	m := map[rune]string{}
	for _, r := range text {
		m[r+by] = string(r)
	}
	return m
}

var (
	hangulLatin = shiftedRemap("Lorem ipsum office affluent café Привет TRUETYPEZQ 1234", 0xac00)
	greekLatin  = shiftedRemap("Dolor sit amet official TYPEONEQX 5678", 0x350)
)

// openTestdata opens a fixture for the test's lifetime, with its size.
func openTestdata(t *testing.T, name string) (*os.File, int64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return f, st.Size()
}
