package image_test

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"testing"

	imgreader "github.com/fumibako/fumibako/internal/extract/image"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// FuzzImage feeds arbitrary bytes to the format sniffing, the TIFF IFD
// walker and the decoders: each must answer with an error or pages, never
// panic, loop or allocate past the page bound. Seeds: the files in
// testdata/ (a two-page TIFF, a PNG, a JPEG, a BMP) and a few made here.
func FuzzImage(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add(testcorpus.ScanTIFF([]*image.Gray{gray(3, 2, 1), gray(2, 3, 4), gray(1, 1, 9)}, 200))
	f.Add([]byte("MM\x00*\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("II*\x00\x08\x00\x00\x00\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := imgreader.Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		if src.Pages() < 1 || src.Pages() > imgreader.MaxPages {
			t.Fatalf("Pages() = %d", src.Pages())
		}
		for i := 0; i < src.Pages(); i++ {
			if img, err := src.Page(i); err == nil && img.Bounds().Empty() {
				t.Fatalf("page %d decoded empty without an error", i+1)
			}
		}
	})
}
