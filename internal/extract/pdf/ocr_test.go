package pdf

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocr"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// sizeEngine answers each page with the size of the image it was given.
type sizeEngine struct{ sizes []image.Point }

func (e *sizeEngine) Recognize(_ context.Context, img image.Image) ([]string, error) {
	s := img.Bounds().Size()
	e.sizes = append(e.sizes, s)
	return []string{fmt.Sprintf("%dx%d", s.X, s.Y)}, nil
}

func scanPage(w, h, dpi int) testcorpus.ScanPDFPage {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 7)
	}
	return testcorpus.ScanPDFPage{Image: g, DPI: dpi}
}

// TestReadScannedPages: image-only pages are read by OCR, in page order
// among the text pages, each at its image's own resolution (or capped),
// with progress over the pages that need OCR; a page with a text layer
// never reaches the engine; without an engine the pages wait.
func TestReadScannedPages(t *testing.T) {
	mixed, err := testcorpus.ScanPDF([]testcorpus.ScanPDFPage{
		scanPage(400, 600, 200), {Text: "Text layer page"}, scanPage(900, 600, 300),
	})
	if err != nil {
		t.Fatal(err)
	}
	// A 100-inch page of one 100-pixel image: 150 dpi would be 225 Mpx.
	huge, err := testcorpus.ScanPDF([]testcorpus.ScanPDFPage{scanPage(100, 100, 1)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name     string
		path     string
		memLimit int64
		engine   bool
		places   []string
		progress []string
		waiting  int
		noText   bool
	}{
		{"mixed", write("mixed.pdf", mixed), 0, true,
			[]string{"ページ001（OCR）", "ページ002: [Text layer page]", "ページ003（OCR）"},
			[]string{"0/2", "1/2", "2/2"}, 0, false},
		{"mixed without engine", write("mixed2.pdf", mixed), 0, false,
			[]string{"ページ002: [Text layer page]"}, nil, 2, false},
		{"LibreOffice scan", filepath.Join("testdata", "lo-scan.pdf"), 0, true, nil, []string{"0/1", "1/1"}, 0, false},
		{"LibreOffice scan without engine", filepath.Join("testdata", "lo-scan.pdf"), 0, false, nil, nil, 1, true},
		{"huge page", write("huge.pdf", huge), 0, true, nil, []string{"0/1", "1/1"}, 0, false},
		// The smallest engine bound (memory.go: 128 MiB) renders the
		// largest page OCR asks for.
		{"huge page, smallest engine", write("huge2.pdf", huge), 256 << 20, true, nil, []string{"0/1", "1/1"}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var progress []string
			done := 0
			o := &extract.OCR{
				PageDone: func(string, []string) error { done++; return nil },
				Progress: func(d, n int) { progress = append(progress, fmt.Sprintf("%d/%d", d, n)) },
			}
			eng := &sizeEngine{}
			if tc.engine {
				o.Engine = func() extract.Recognizer { return eng }
			}
			res, err := read(context.Background(), tc.path, extract.Options{Scratch: t.TempDir(), OCR: o, MemLimit: tc.memLimit})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Places {
				if p.Name != PlaceInfo {
					if p.Name == extract.PageName(2) {
						got = append(got, fmt.Sprintf("%s: %v", p.Name, p.Lines))
					} else {
						got = append(got, p.Name)
					}
				}
			}
			if tc.places != nil && !slices.Equal(got, tc.places) {
				t.Errorf("places = %q, want %q", got, tc.places)
			}
			if !slices.Equal(progress, tc.progress) {
				t.Errorf("progress = %q, want %q", progress, tc.progress)
			}
			if res.OCRWaiting != tc.waiting || res.NoText != tc.noText || res.OCRPages != len(eng.sizes) || done != len(eng.sizes) {
				t.Errorf("OCRWaiting %d, NoText %v, OCRPages %d, PageDone %d, engine %d; want %d, %v", res.OCRWaiting, res.NoText, res.OCRPages, done, len(eng.sizes), tc.waiting, tc.noText)
			}
			if tc.name == "mixed" {
				// The scans' own pixels, give or take the engine's rounding.
				for i, want := range []image.Point{{400, 600}, {900, 600}} {
					if d := eng.sizes[i].Sub(want); d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 {
						t.Errorf("page %d rendered at %v, want %v", i+1, eng.sizes[i], want)
					}
				}
			}
			for _, s := range eng.sizes {
				if s.X*s.Y > ocr.MaxPixels || s.X < 100 {
					t.Errorf("page rendered at %v, want at most %d pixels", s, ocr.MaxPixels)
				}
			}
			t.Logf("rendered %v", eng.sizes)
		})
	}
}
