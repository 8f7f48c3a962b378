// Command gensample writes the demo folder of `make demo`: a few dozen
// Japanese text and Office files with known content, and one scanned PDF
// (a page image without a text layer, as a multifunction printer writes
// it) whose text only OCR finds (issue 29: 見積依頼 and the other words
// planted in it).
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func main() {
	n := flag.Int("n", 60, "number of files")
	seed := flag.Int64("seed", 1, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gensample [-n N] [-seed S] DIR")
		os.Exit(2)
	}
	files, err := testcorpus.Generate(flag.Arg(0), *n, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files written to %s\n", len(files), flag.Arg(0))
	if err := writeScan(filepath.Join(flag.Arg(0), "スキャン", "見積依頼（スキャン）.pdf"), *seed); err != nil {
		// The Office files are the demo; a machine without the Japanese
		// font (make setup installs it) only misses the scan.
		fmt.Fprintln(os.Stderr, "gensample: no scanned PDF:", err)
		return
	}
	fmt.Println("1 scanned PDF written (its text is found once Tesseract is installed)")
}

// writeScan writes a one-page scanned PDF whose first planted word is
// 見積依頼, so the demo's search for 見積 finds it by OCR.
func writeScan(path string, seed int64) error {
	font, err := testcorpus.ScanFont()
	if err != nil {
		return err
	}
	var page testcorpus.ScanPage
	for s := seed; ; s++ {
		if page, err = testcorpus.ScanPageOf(font, testcorpus.ScanHorizontal, rand.New(rand.NewSource(s))); err != nil {
			return err
		}
		if page.Words[0] == "見積依頼" || s-seed > 200 {
			break
		}
	}
	pdf, err := testcorpus.ScanPDF([]testcorpus.ScanPDFPage{{Image: page.Image, DPI: page.DPI}})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, pdf, 0o644)
}
