package officefile_test

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile"
)

// TestODFMimeType reads the mimetype entry of the packages LibreOffice
// wrote and refuses ZIPs that do not start with a stored ODF mimetype.
func TestODFMimeType(t *testing.T) {
	for file, want := range map[string]string{
		"text.odt":   "application/vnd.oasis.opendocument.text",
		"sheet.ods":  "application/vnd.oasis.opendocument.spreadsheet",
		"slides.odp": "application/vnd.oasis.opendocument.presentation",
	} {
		b, err := os.ReadFile(filepath.Join("..", "extract", "odf", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := officefile.ODFMimeType(b[:officefile.SniffBytes]); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", file, got, ok, want)
		}
	}
	zipOf := func(name, body string, method uint16) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		w.Write([]byte(body))
		zw.Close()
		return buf.Bytes()
	}
	for name, head := range map[string][]byte{
		"deflated mimetype": zipOf("mimetype", "application/vnd.oasis.opendocument.text", zip.Deflate),
		"other first entry": zipOf("[Content_Types].xml", "<Types/>", zip.Store),
		"epub":              zipOf("mimetype", "application/epub+zip", zip.Store),
		"cut header":        zipOf("mimetype", "application/vnd.oasis.opendocument.text", zip.Store)[:40],
		"not a zip":         []byte(`{\rtf1 x}`),
	} {
		if got, ok := officefile.ODFMimeType(head); ok {
			t.Errorf("%s: %q accepted", name, got)
		}
	}
}

func TestIsRTF(t *testing.T) {
	for in, want := range map[string]bool{
		`{\rtf1\ansi x}`:           true,
		"\xef\xbb\xbf\r\n{\\rtf1}": true,
		`{\rt`:                     false,
		`\rtf1`:                    false,
		"PK\x03\x04":               false,
	} {
		if got := officefile.IsRTF([]byte(in)); got != want {
			t.Errorf("IsRTF(%q) = %v", in, got)
		}
	}
}
