// Command ocrmix writes the mixed folder that issue 29's speed figures are
// measured on: Office files of the standard generated corpus
// (testcorpus.Generate) with a share of scanned PDFs among them
// (testcorpus.ScanPages, every page distinct, so no page is in the OCR
// cache), and the page images as PNG files beside them for timing
// Tesseract alone on the same pages.
//
//	go run ./bench/cmd/ocrmix -dir /tmp/mix -files 1000 -scans 0.05 -pages 2
//	fumibako --workspace /tmp/mix/ws folder add /tmp/mix/docs
//	time fumibako --workspace /tmp/mix/ws index --workers 2
//	ls /tmp/mix/pages/*.png | time xargs -P 2 -I{} tesseract {} - -l jpn+eng >/dev/null
package main

import (
	"flag"
	"fmt"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func main() {
	dir := flag.String("dir", "mix", "output folder (docs/ and pages/ are made in it)")
	files := flag.Int("files", 1000, "files in all")
	share := flag.Float64("scans", 0.05, "share of the files that are scanned PDFs")
	pages := flag.Int("pages", 2, "pages per scanned PDF (a clean and a noisy one, then alternating)")
	seed := flag.Int64("seed", 29, "random seed")
	flag.Parse()
	if err := run(*dir, *files, *share, *pages, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "ocrmix:", err)
		os.Exit(1)
	}
}

func run(dir string, files int, share float64, pages int, seed int64) error {
	scans := int(float64(files)*share + 0.5)
	docs, imgs := filepath.Join(dir, "docs"), filepath.Join(dir, "pages")
	for _, d := range []string{docs, imgs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if _, err := testcorpus.Generate(docs, files-scans, seed); err != nil {
		return err
	}
	f, err := testcorpus.ScanFont()
	if err != nil {
		return err
	}
	for i := 0; i < scans; i++ {
		var pdf []testcorpus.ScanPDFPage
		for j := 0; j < pages; j++ {
			kind := testcorpus.ScanHorizontal
			if j%2 == 1 {
				kind = testcorpus.ScanNoisy
			}
			p, err := testcorpus.ScanPageOf(f, kind, rand.New(rand.NewSource(seed+int64(i*pages+j+1))))
			if err != nil {
				return err
			}
			pdf = append(pdf, testcorpus.ScanPDFPage{Image: p.Image, DPI: p.DPI})
			if err := writePNG(filepath.Join(imgs, fmt.Sprintf("scan%03d-%d.png", i, j+1)), p); err != nil {
				return err
			}
		}
		data, err := testcorpus.ScanPDF(pdf)
		if err != nil {
			return err
		}
		sub := filepath.Join(docs, fmt.Sprintf("スキャン%02d", i%7))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("scan%03d.pdf", i)), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d Office files, %d scanned PDFs of %d pages in %s\n", files-scans, scans, pages, docs)
	return nil
}

func writePNG(path string, p testcorpus.ScanPage) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, p.Image); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
