package pdf

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// bigPDF writes a PDF of n copies of a fixture's pages with qpdf (with
// object streams when objstm), for the cost of reading font dictionaries
// against the cost of reading the document (bench/pdffonts.md).
func bigPDF(b *testing.B, fixture string, n int, objstm bool) string {
	b.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		b.Skip("qpdf not installed")
	}
	src, err := filepath.Abs(filepath.Join("testdata", fixture))
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "big.pdf")
	args := []string{"--empty"}
	if objstm {
		args = append(args, "--object-streams=generate")
	}
	args = append(args, "--pages")
	for range n {
		args = append(args, src)
	}
	args = append(args, "--", out)
	if msg, err := exec.Command("qpdf", args...).CombinedOutput(); err != nil {
		b.Fatalf("qpdf: %v %s", err, msg)
	}
	return out
}

// BenchmarkFontDicts reads the font dictionaries of every page of a
// 900-page document (what an ordinary PDF pays: fontdicts.go).
func BenchmarkFontDicts(b *testing.B) {
	for _, objstm := range []bool{false, true} {
		name := "xref"
		if objstm {
			name = "objstm"
		}
		b.Run(name, func(b *testing.B) {
			path := bigPDF(b, "lo-horizontal.pdf", 300, objstm)
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				d := docDicts{r: f, size: st.Size()}
				for i := range 900 {
					d.page(i)
				}
				if d.err != nil || len(d.pages) != 900 {
					b.Fatalf("%d pages, %v", len(d.pages), d.err)
				}
			}
		})
	}
}

// BenchmarkReadBig reads the same document whole, for the comparison.
func BenchmarkReadBig(b *testing.B) {
	path := bigPDF(b, "lo-horizontal.pdf", 300, false)
	if _, err := read(context.Background(), path, extract.Options{}); err != nil {
		b.Fatal(err) // the engine's start stays out of the loop
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(context.Background(), path, extract.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
