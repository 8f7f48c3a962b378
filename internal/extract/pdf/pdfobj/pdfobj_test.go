package pdfobj

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/testutil"
)

func open(t testing.TB, path string) *File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFonts reads the font dictionaries of fixtures other programs wrote
// (../testdata/gen.sh): cross-reference tables, object and xref streams
// (qpdf), a startxref pointing nowhere (found by a scan), offsets shifted
// by a mail header, an encrypted file (its fonts are plain objects).
func TestFonts(t *testing.T) {
	shifted := []string{"TrueType AAAAAA+DejaVuSans FontFile2 flags=4", "TrueType BAAAAA+DejaVuSans FontFile2 flags=4"}
	tests := []struct {
		file    string
		pages   int
		scanned bool
		fonts   []string // of the first page, sorted
	}{
		{"py-shifted.pdf", 1, false, shifted},
		{"py-shifted-objstm.pdf", 1, false, shifted},
		{"py-shifted-badxref.pdf", 1, true, shifted},
		{"py-shifted-aes128.pdf", 1, false, shifted},
		{"py-shifted-rc4.pdf", 1, false, shifted},
		{"py-shifted-rc40.pdf", 1, false, shifted},
		{"py-shifted-aes256.pdf", 1, false, shifted},
		{"py-type3.pdf", 1, false, []string{"Type1 Helvetica - flags=0", "Type3  - flags=0"}},
		{"py-type3-junk.pdf", 1, false, []string{"Type1 Helvetica - flags=0", "Type3  - flags=0"}},
		{"lo-password.pdf", 3, false, []string{"Type1 BAAAAA+NotoSerifCJKjp-Regular-VKana - flags=0 ToUnicode"}},
		{"fpdf-ipag.pdf", 2, false, []string{"Type0 utf8ipag FontFile2 flags=4 ToUnicode Identity-H CIDFontType2 Adobe-UCS Stream"}},
		{"qpdf-allbad.pdf", 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := open(t, filepath.Join("..", "testdata", tt.file))
			pages := f.Pages()
			if len(pages) != tt.pages || f.scanned != tt.scanned {
				t.Fatalf("%d pages, scanned %v; want %d, %v", len(pages), f.scanned, tt.pages, tt.scanned)
			}
			if len(pages) == 0 {
				return
			}
			var got []string
			for _, ft := range f.PageFonts(pages[0]) {
				s := ft.Subtype + " " + ft.BaseFont + " " + ft.FontFile
				if ft.FontFile == "" {
					s += "-"
				}
				s += " flags=" + string(rune('0'+ft.Flags%10))
				if ft.ToUnicode {
					s += " ToUnicode"
				}
				if ft.Subtype == "Type0" {
					s += " " + ft.Encoding + " " + ft.CIDSubtype + " " + ft.Registry + "-" + ft.Ordering + " " + ft.CIDToGIDMap
				}
				got = append(got, s)
			}
			slices.Sort(got)
			if !reflect.DeepEqual(got, tt.fonts) {
				t.Errorf("fonts = %q, want %q", got, tt.fonts)
			}
		})
	}
}

// TestType3 reads a Type 3 font's /Differences and glyph procedures, and
// Helvetica's encoding dictionary beside it.
func TestType3(t *testing.T) {
	f := open(t, filepath.Join("..", "testdata", "py-type3.pdf"))
	var ft Font
	for _, x := range f.PageFonts(f.Pages()[0]) {
		if x.Subtype == "Type3" {
			ft = x
		} else if x.BaseFont != "Helvetica" || x.Encoding != "WinAnsiEncoding" ||
			!reflect.DeepEqual(x.Differences, map[int]string{1: "f_f_i", 2: "T_h", 3: "uni30C630C8"}) {
			t.Errorf("font = %+v", x)
		}
	}
	want := map[int]string{2: "T_h", 3: "e", 4: "space", 5: "o", 6: "f_f_i", 7: "c", 8: "uni65E5672C", 9: "g12",
		0x41: "T", 0x42: "Y", 0x43: "P", 0x44: "E", 0x45: "H", 0x46: "R", 0x47: "uni30C6", 0x48: "f_l"}
	if !reflect.DeepEqual(ft.Differences, want) || ft.DifferencesStart != 0x41 || ft.FirstChar != 2 || !ft.HasEncoding || ft.ToUnicode {
		t.Errorf("font = %+v", ft)
	}
	slices.Sort(ft.CharProcs)
	if len(ft.CharProcs) != 16 || ft.CharProcs[0] != "E" {
		t.Errorf("CharProcs = %q", ft.CharProcs)
	}
}

func TestObjects(t *testing.T) {
	tests := []struct {
		in   string
		want Object
	}{
		{"null", nil},
		{"true", true},
		{"-12", int64(-12)},
		{"+.5", 0.5},
		{"/A#20B", Name("A B")},
		{"(a\\(b\\)\\n\\101(c)\\\n)", String("a(b)\nA(c)")},
		{"<48 65 6C6>", String("Hel`")},
		{"[1 0 R 2 /N]", Array{Ref{1, 0}, int64(2), Name("N")}},
		{"<< /K [<<>>] /L 3 0 R >>", Dict{"K": Array{Dict{}}, "L": Ref{3, 0}}},
		{"% comment\n 7", int64(7)},
	}
	for _, tt := range tests {
		p := &parser{b: []byte(tt.in)}
		got, err := p.object(0)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("object(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "(open", "<< /K", "[1 2", "<zz>", ")", strings.Repeat("[", 100)} {
		p := &parser{b: []byte(in)}
		if got, err := p.object(0); err == nil {
			t.Errorf("object(%q) = %#v, want an error", in, got)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, in := range []string{"", "not a pdf", "%PDF-1.4\n", "%PDF-1.4\n1 0 obj\n<< /Type /Page >>\nendobj\n"} {
		if _, err := Open(strings.NewReader(in), int64(len(in))); err == nil {
			t.Errorf("Open(%q) succeeded", in)
		}
	}
}

// FuzzOpen feeds arbitrary files: opening, walking the pages, reading
// every page's fonts and their streams (decrypted in an encrypted file)
// must not panic. Seeds: the PDF reader's fixtures
// (../testdata: cross-reference tables and streams, object streams, a
// broken startxref, a mail header, encryption, Type 3 and CID fonts).
func FuzzOpen(f *testing.F) {
	testutil.AddSeeds(f, filepath.Join("..", "..", "testdata", "*.pdf"))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		for _, p := range file.Pages() {
			for _, ft := range file.PageFonts(p) {
				// Their streams, decrypted when the file is, and
				// a mapped simple font's descriptor.
				file.ToUnicodeData(ft)
				file.ProgramData(ft)
				file.ProgramData(file.Described(ft))
			}
		}
	})
}

// TestStreamData reads a font's program and ToUnicode map through
// /FlateDecode, plain and in a file encrypted with an empty user password
// (AES-256: the same bytes), and refuses the streams of a file that needs
// a password.
func TestStreamData(t *testing.T) {
	var progs, maps [][]byte
	for _, name := range []string{"py-cid.pdf", "py-cid-aes256.pdf"} {
		f := open(t, filepath.Join("..", "testdata", name))
		var cid Font
		for _, ft := range f.PageFonts(f.Pages()[0]) {
			if ft.ToUnicode {
				cid = ft
			}
		}
		prog, err := f.ProgramData(cid)
		if err != nil || !bytes.HasPrefix(prog, []byte{0, 1, 0, 0}) {
			t.Errorf("%s: ProgramData = %q…, %v; want a TrueType program", name, prog[:min(len(prog), 8)], err)
		}
		tu, err := f.ToUnicodeData(cid)
		if err != nil || !bytes.Contains(tu, []byte("beginbfchar")) {
			t.Errorf("%s: ToUnicodeData = %q, %v; want a CMap", name, tu, err)
		}
		progs, maps = append(progs, prog), append(maps, tu)
	}
	if !bytes.Equal(progs[0], progs[1]) || !bytes.Equal(maps[0], maps[1]) {
		t.Errorf("the encrypted file's program and map differ from the plain file's")
	}
	enc := open(t, filepath.Join("..", "testdata", "lo-password.pdf"))
	fonts := enc.PageFonts(enc.Pages()[0])
	if len(fonts) == 0 {
		t.Fatal("no fonts in the encrypted file")
	}
	if b, err := enc.ToUnicodeData(fonts[0]); !errors.Is(err, errPassword) {
		t.Errorf("ToUnicodeData of a file that needs a password = %q, %v; want errPassword", b, err)
	}
}

// shortReader gives at most 100 bytes a read, as a file cut while it is
// read does.
type shortReader struct{ b []byte }

func (r shortReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 100)], r.b[off:])
	return n, io.ErrUnexpectedEOF
}

// TestShortReads: reads that return less than asked give no panic.
func TestShortReads(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "py-shifted.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(shortReader{b}, int64(len(b)))
	if err != nil {
		return
	}
	for _, p := range f.Pages() {
		f.PageFonts(p)
	}
}

// TestDescribed: a simple font with a ToUnicode map keeps its descriptor
// unread until Described, which gives its flags and program
// (qpdf-brokenmap.pdf: a TrueType and two Type 1 fonts, each with a map).
func TestDescribed(t *testing.T) {
	f := open(t, filepath.Join("..", "testdata", "qpdf-brokenmap.pdf"))
	var got []string
	for _, ft := range f.PageFonts(f.Pages()[0]) {
		if !ft.ToUnicode || ft.FontFile != "" || ft.Flags != 0 || ft.Ref == (Ref{}) {
			t.Errorf("%s: before Described: %+v", ft.BaseFont, ft)
		}
		if _, err := f.ProgramData(ft); err == nil {
			t.Errorf("%s: a program before Described", ft.BaseFont)
		}
		d := f.Described(ft)
		prog, err := f.ProgramData(d)
		if err != nil || len(prog) < 100 {
			t.Errorf("%s: ProgramData after Described: %d bytes, %v", ft.BaseFont, len(prog), err)
		}
		got = append(got, d.Subtype+" "+d.FontFile+" flags="+string(rune('0'+d.Flags%10)))
	}
	slices.Sort(got)
	want := []string{"TrueType FontFile2 flags=4", "Type1 FontFile flags=4", "Type1 FontFile flags=4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fonts = %q, want %q", got, want)
	}
}

// TestDifferences reads /Differences arrays: names by code, and the
// largest code a number sets (any other object counts as past every
// code, as it makes poppler read no name as a number).
func TestDifferences(t *testing.T) {
	f := &File{}
	tests := []struct {
		in    Array
		want  map[int]string
		start int
	}{
		{Array{int64(1), Name("a"), Name("b"), int64(7), Name("c")}, map[int]string{1: "a", 2: "b", 7: "c"}, 7},
		{Array{int64(0), Name("g0"), int64(2), Name("g2")}, map[int]string{0: "g0", 2: "g2"}, 2},
		{Array{float64(3), Name("a")}, map[int]string{3: "a"}, maxDifferences},
		{Array{int64(1), String("x"), Name("a")}, map[int]string{1: "a"}, maxDifferences},
		{Array{int64(-1), Name("a"), int64(4), Name("b")}, map[int]string{4: "b"}, maxDifferences},
		{Array{}, map[int]string{}, 0},
	}
	for _, tt := range tests {
		got, start := f.differences(tt.in)
		if !reflect.DeepEqual(got, tt.want) || start != tt.start {
			t.Errorf("differences(%v) = %v, %d; want %v, %d", tt.in, got, start, tt.want, tt.start)
		}
	}
}
