//go:build testhooks

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"os"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocr"
)

// A fake OCR engine and a fake scan format for the end-to-end tests of OCR
// runs (issue 29), only in binaries built with -tags testhooks.
//
// FUMIBAKO_TEST_OCR, when set and not "missing", makes the engine found
// (program "fake-tesseract") and names a counter file: each page the fake
// recognizer reads appends its text and a newline there, so a test counts
// the recognizer's calls per page. FUMIBAKO_TEST_OCR_SLEEP is a duration
// each page takes (default none); a page whose text contains
// FUMIBAKO_TEST_OCR_HANG never finishes.
//
// A .ocrtest file is a scan: each non-empty line is a page. A line
// starting with "text:" has a text layer (read without OCR); any other is
// an image-only page, whose key is the SHA-256 of its text and whose
// recognized text is "OCR " + its text. The reader uses extract.OCR
// exactly as the real readers do: Progress before each page and after the
// last, Cached, then Engine().Recognize and PageDone; with no engine it
// counts Result.OCRWaiting and succeeds.

const fakeOCRProgram = "fake-tesseract"

func init() {
	if os.Getenv("FUMIBAKO_TEST_OCR") == "missing" {
		// Missing even where Tesseract is installed (findOCR is ocr.Find).
		findOCR = func(string) (string, error) { return "", ocr.ErrNotFound }
	}
	if v := os.Getenv("FUMIBAKO_TEST_OCR"); v != "" && v != "missing" {
		findOCR = func(string) (string, error) { return fakeOCRProgram, nil }
		checkOCR = func(string) error { return nil }
		real := newRecognizer
		newRecognizer = func(program, scratch string) (extract.Recognizer, error) {
			if program == fakeOCRProgram {
				return fakeRecognizer{counter: v}, nil
			}
			return real(program, scratch)
		}
	}
	extract.RegisterFormat(extract.Format{Name: "ocrtest", Extensions: []string{extract.TestOCRExtension}, Read: readOCRTest})
}

// pageImage is a page of a .ocrtest file as an image: its text rides along.
type pageImage struct{ text string }

func (pageImage) ColorModel() color.Model { return color.GrayModel }
func (pageImage) Bounds() image.Rectangle { return image.Rect(0, 0, 1, 1) }
func (pageImage) At(x, y int) color.Color { return color.Gray{} }

type fakeRecognizer struct{ counter string }

func (f fakeRecognizer) Recognize(ctx context.Context, img image.Image) ([]string, error) {
	p, ok := img.(pageImage)
	if !ok {
		return nil, fmt.Errorf("fake ocr: not a test page")
	}
	if h := os.Getenv("FUMIBAKO_TEST_OCR_HANG"); h != "" && strings.Contains(p.text, h) {
		<-ctx.Done()
		select {}
	}
	if d, err := time.ParseDuration(os.Getenv("FUMIBAKO_TEST_OCR_SLEEP")); err == nil {
		time.Sleep(d)
	}
	c, err := os.OpenFile(f.counter, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	_, err = c.WriteString(p.text + "\n")
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return []string{"OCR " + p.text}, err
}

func readOCRTest(ctx context.Context, path string, opt extract.Options) (*extract.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pages []string
	for _, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if l != "" {
			pages = append(pages, l)
		}
	}
	total := 0
	for _, p := range pages {
		if !strings.HasPrefix(p, "text:") {
			total++
		}
	}
	o := opt.OCR
	if o == nil {
		o = &extract.OCR{}
	}
	progress := func(done int) {
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	res := &extract.Result{}
	done := 0
	for i, p := range pages {
		var lines []string
		if t, ok := strings.CutPrefix(p, "text:"); ok {
			lines = []string{t}
		} else {
			progress(done)
			sum := sha256.Sum256([]byte(p))
			key := hex.EncodeToString(sum[:])
			if got, ok := cached(o, key); ok {
				lines = got
				res.OCRPages++
			} else if o.Engine == nil || o.Engine() == nil {
				res.OCRWaiting++
			} else {
				got, err := o.Engine().Recognize(ctx, pageImage{text: p})
				if err != nil {
					return nil, err
				}
				if err := o.PageDone(key, got); err != nil {
					return nil, err
				}
				lines = got
				res.OCRPages++
			}
			done++
		}
		if len(lines) > 0 {
			res.Places = append(res.Places, extract.Place{Name: fmt.Sprintf("ページ%03d", i+1), Lines: lines})
		}
	}
	if total > 0 {
		progress(done)
	}
	return res, nil
}

func cached(o *extract.OCR, key string) ([]string, bool) {
	if o.Cached == nil {
		return nil, false
	}
	return o.Cached(key)
}
