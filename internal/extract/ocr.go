package extract

import (
	"context"
	"image"
)

// OCR equips a reader to read the text of images (issue 29): the
// image-only pages of a PDF and image files (.tif .tiff .png .jpg .jpeg
// .bmp). The worker builds it for each file; readers never run OCR on a
// page that has a text layer.
//
// A page is known by its Key, a content hash of its image (ocr.Key), so a
// page OCRed once is never OCRed again: not after a kill, a retry, a
// rename or a copy of the same scan. The worker reads earlier results
// through Cached; each page it recognizes goes to the coordinator through
// PageDone before the next page starts (the coordinator, the only writer
// of the workspace, stores it), so a kill or a deadline loses at most the
// page in flight.
type OCR struct {
	// Engine returns the recognizer of pages, nil when no OCR engine is
	// installed: a reader then reads what has a text layer, counts the
	// pages that need OCR in Result.OCRWaiting, and the file succeeds.
	// It is called only when a file has a page that needs OCR, so that
	// finding and probing the engine (Tesseract's --version and
	// --list-langs) costs nothing in a run of files without scans
	// (issue 35); nil is the same as a func returning nil.
	Engine func() Recognizer
	// Cached returns the lines recognized earlier for a page key.
	Cached func(key string) (lines []string, ok bool)
	// PageDone reports a page just recognized (not one from Cached); it
	// returns an error only when the result could not be handed over
	// (the reader then stops: the run is ending).
	PageDone func(key string, lines []string) error
	// Progress reports done of total pages of this file that need OCR,
	// cached ones included, before each page and after the last.
	Progress func(done, total int)
}

// Recognizer reads the text of one page image.
type Recognizer interface {
	// Recognize returns the page's lines in reading order (vertical
	// writing and rotated pages included); words below the engine's
	// confidence threshold are dropped.
	Recognize(ctx context.Context, img image.Image) ([]string, error)
}
