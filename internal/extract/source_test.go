package extract_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// allExtensions are the extensions of every file fumibako indexes.
func allExtensions() []string {
	exts := slices.Concat(extract.OfficeExtensions, slices.Sorted(maps.Keys(extract.OpenDocumentKinds)), extract.TextExtensions, []string{".pdf"})
	for _, e := range exts {
		if !extract.IsTarget("f" + e) {
			panic(e + " is no target")
		}
	}
	return exts
}

// TestExtractEmptyFiles: one rule for a zero-byte file of every
// extension: it holds nothing, so it is read with no places and no error
// (the reference's rule for text files; Word and PowerPoint open the empty
// .docx and .pptx Explorer's "New" menu makes), never a failure.
func TestExtractEmptyFiles(t *testing.T) {
	for _, ext := range allExtensions() {
		t.Run(ext, func(t *testing.T) {
			res, err := fixture.ExtractBytes(t, "空"+ext, nil, extract.Options{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if len(res.Places) != 0 {
				t.Errorf("places = %+v, want none", res.Places)
			}
		})
	}
}

// TestExtractMisnamedContent: the first bytes decide the reader. A PDF
// under any name is read by the PDF reader (its page text, never the
// PDF's syntax as text); an image or archive under a document name fails
// as broken or not that format, under a text name as not text.
func TestExtractMisnamedContent(t *testing.T) {
	pdf := fixture.TextPDF("Misnamed PDF text")
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	zipData := fixture.ZipBytes(t, fixture.Part{Name: "readme.txt", Body: "just a zip"})
	gz := []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + strings.Repeat("gzip body ", 50))
	tests := []struct {
		name string
		data []byte
		msg  string // "" = read, with the PDF's page text
	}{
		{"資料.xlsx", pdf, ""},
		{"資料.xlsm", pdf, ""},
		{"資料.docx", pdf, ""},
		{"資料.pptx", pdf, ""},
		{"資料.xls", pdf, ""},
		{"資料.doc", pdf, ""},
		{"資料.ppt", pdf, ""},
		{"資料.txt", pdf, ""},
		{"資料.csv", pdf, ""},
		{"資料.odt", pdf, ""},
		{"資料.rtf", pdf, ""},
		{"画像.xlsx", img.Bytes(), extract.MsgCorrupt},
		{"画像.docx", img.Bytes(), extract.MsgCorrupt},
		{"画像.pptx", img.Bytes(), extract.MsgCorrupt},
		{"画像.xls", img.Bytes(), extract.MsgCorrupt},
		{"画像.pdf", img.Bytes(), extract.MsgCorrupt},
		{"画像.odt", img.Bytes(), extract.MsgCorrupt},
		{"画像.txt", img.Bytes(), extract.MsgNotText},
		{"圧縮.txt", zipData, extract.MsgNotText},
		{"圧縮.csv", gz, extract.MsgNotText},
		{"圧縮.docx", gz, extract.MsgCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := fixture.ExtractBytes(t, tt.name, tt.data, extract.Options{})
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("Extract: %v", err)
				}
				var text []string
				for _, p := range res.Places {
					text = append(text, p.Name+": "+strings.Join(p.Lines, " / "))
				}
				got := strings.Join(text, "\n")
				if !strings.Contains(got, "ページ001: Misnamed PDF text") || strings.Contains(got, "obj") {
					t.Errorf("places:\n%s\nwant the PDF's page text", got)
				}
				return
			}
			var fe *extract.Error
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, tt.msg) {
				t.Fatalf("Extract = %v, want %q", err, tt.msg)
			}
		})
	}
}

// TestExtractReadBuffer: files read into the caller's buffer
// (Options.ReadBuffer), one after another as a worker reads them, give
// what files read into buffers of their own give: a file that fits, a
// shorter one after it, one larger than the buffer, and a .docx whose
// first bytes only go into it.
func TestExtractReadBuffer(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"a.txt":  []byte(strings.Repeat("一行目の文章です。\r\n", 200)),
		"b.txt":  []byte("短い"),
		"c.txt":  []byte(strings.Repeat("大きなファイル\n", 1000)),
		"d.docx": fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("本文の段落"), nil)...),
	}
	buf := make([]byte, 8192)
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.docx", "b.txt"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := extract.Extract(context.Background(), path, name, extract.Options{Scratch: dir})
		if err != nil {
			t.Fatal(err)
		}
		got, err := extract.Extract(context.Background(), path, name, extract.Options{Scratch: dir, ReadBuffer: buf})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Places, want.Places) || len(got.Places) == 0 {
			t.Errorf("%s with the buffer: %q, without %q", name, got.Places, want.Places)
		}
	}
}
