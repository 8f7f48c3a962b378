package docx

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/pptx"
)

func TestOOXMLPanicBecomesCorrupt(t *testing.T) {
	ooxml.Fault = func() { panic("boom") }
	defer func() { ooxml.Fault = nil }()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte("<w:document/>"))
	zw.Close()
	for _, r := range []struct {
		ext  string
		read extract.Reader
	}{{".docx", readDocx}, {".pptx", pptx.Read}} {
		p := filepath.Join(t.TempDir(), "a"+r.ext)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := r.read(context.Background(), p, extract.Options{})
		var fe *extract.Error
		if res != nil || !errors.As(err, &fe) || fe.Msg != extract.MsgCorrupt || !strings.Contains(fe.Cause.Error(), "boom") {
			t.Errorf("%s reader with a panic = %v, %v; want Corrupt", r.ext, res, err)
		}
	}
}

func TestOOXMLCancelled(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("ppt/presentation.xml")
	w.Write([]byte(`<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:sldIdLst><p:sldId id="1"/></p:sldIdLst></p:presentation>`))
	w, _ = zw.Create("word/document.xml")
	w.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`))
	zw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, ext := range []string{".docx", ".pptx"} {
		p := filepath.Join(t.TempDir(), "a"+ext)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := extract.Extract(ctx, p, p, extract.Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v, want context.Canceled", ext, err)
		}
	}
}
