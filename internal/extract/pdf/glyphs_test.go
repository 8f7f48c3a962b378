package pdf

import (
	"reflect"
	"testing"
)

// TestGlyphFonts reads the text of fonts without a ToUnicode map
// (issue 33), fixtures LibreOffice wrote and qpdf edited (testdata/gen.sh):
// the glyphs of a TrueType subset named in its 'post' table and those of
// a Type 1 subset named in its built-in encoding (ligatures, Cyrillic,
// kanji as uniXXXX) give the text LibreOffice was given; without names
// nothing of the control characters the engine gives is indexed.
func TestGlyphFonts(t *testing.T) {
	text := []string{
		"Lorem ipsum office affluent café Привет TRUETYPEZQ 1234",
		"Dolor sit amet official 日本語の見積書 TYPEONEQX 5678",
	}
	tests := []struct {
		file string
		page []string
	}{
		// The original, with its ToUnicode maps.
		{"lo-glyphs.pdf", text},
		// Without them, glyph names give the same text (pdftotext
		// gives the Type 1 line only).
		{"qpdf-glyphnames.pdf", text},
		// The Type 1 fonts as bare CFF (Type1C): the engine maps
		// all but the ligature f_f_i, the CFF's encoding gives it.
		{"qpdf-type1c.pdf", text},
		// Without maps nor names the glyphs are unknown: the
		// engine's codes below U+0020 are dropped; those above it
		// stand as the engine gives them (" !\"#$" for "Q 1234"),
		// as pdftotext gives them too.
		{"qpdf-notounicode.pdf", []string{` !"#$`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) { checkOnePage(t, tt.file, tt.page) })
	}
}

// checkOnePage reads a one-page fixture and checks that its page holds
// exactly lines.
func checkOnePage(t *testing.T, file string, lines []string) {
	t.Helper()
	r, err := readFixture(t, file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"ページ001": lines}
	if got := places(r); !reflect.DeepEqual(got, want) {
		t.Errorf("places =\n%q\nwant\n%q", got, want)
	}
}
