// Command genscan writes the generated scan corpus of the OCR tests
// (testcorpus.ScanPages, issue 29) into a folder: one PNG per page with
// its known text beside it, a PDF of all pages, a multi-page TIFF and a
// PDF mixing a text page with scanned ones, for looking at them and for
// trying Tesseract by hand.
//
//	go run ./tools/genscan -out /tmp/scan -pages 6
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func main() {
	out := flag.String("out", "scan", "output folder")
	n := flag.Int("pages", 6, "pages (one of each kind first)")
	seed := flag.Int64("seed", 29, "random seed")
	flag.Parse()
	if err := run(*out, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genscan:", err)
		os.Exit(1)
	}
}

func run(out string, n int, seed int64) error {
	f, err := testcorpus.ScanFont()
	if err != nil {
		return err
	}
	pages, err := testcorpus.ScanPages(f, n, seed)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var pdf []testcorpus.ScanPDFPage
	mixed := []testcorpus.ScanPDFPage{{Text: "Text layer page"}}
	for i, p := range pages {
		base := filepath.Join(out, fmt.Sprintf("%02d-%s", i+1, p.Kind))
		fh, err := os.Create(base + ".png")
		if err != nil {
			return err
		}
		if err := png.Encode(fh, p.Image); err != nil {
			fh.Close()
			return err
		}
		if err := fh.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(base+".txt", []byte(strings.Join(p.Text, "\n")+"\n"), 0o644); err != nil {
			return err
		}
		pdf = append(pdf, testcorpus.ScanPDFPage{Image: p.Image, DPI: p.DPI})
		if i < 2 {
			mixed = append(mixed, testcorpus.ScanPDFPage{Image: p.Image, DPI: p.DPI})
		}
	}
	for name, ps := range map[string][]testcorpus.ScanPDFPage{"scan.pdf": pdf, "mixed.pdf": mixed} {
		b, err := testcorpus.ScanPDF(ps)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
	}
	// The TIFF holds the first three pages at their own resolution's
	// pixels; its resolution tag says the first page's.
	var grays []*image.Gray
	for _, p := range pages[:min(3, len(pages))] {
		grays = append(grays, p.Image)
	}
	return os.WriteFile(filepath.Join(out, "fax.tif"), testcorpus.ScanTIFF(grays, pages[0].DPI), 0o644)
}
