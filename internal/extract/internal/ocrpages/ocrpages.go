// Package ocrpages drives the OCR of one file's pages through the
// extract.OCR seam (issue 29), the same way for every reader that has
// images to read (the PDF reader's image-only pages, the image reader's
// pages): a page is named by its content (ocr.Key), read from the cache
// when it was OCRed before, else recognized and handed to the coordinator
// (PageDone) before the next page starts, with progress before each page
// and after the last.
package ocrpages

import (
	"context"
	"fmt"
	"image"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocr"
)

// MsgFailed is a file whose page the OCR engine could not read (it
// crashed or printed no result); the deadline and the memory cap have
// their own messages, given by the worker.
const MsgFailed = "画像の文字の読み取り（OCR）に失敗しました"

// Run reads the pages of one file by OCR.
type Run struct {
	opt    *extract.OCR
	res    *extract.Result
	engine extract.Recognizer
	total  int
	done   int
}

// New starts the OCR of total pages into res; opt must not be nil.
func New(opt *extract.OCR, res *extract.Result, total int) *Run {
	return &Run{opt: opt, res: res, total: total}
}

// Waiting reports that no engine is installed: the pages are counted in
// Result.OCRWaiting and not decoded at all (a later run with an engine
// reads them).
func (r *Run) Waiting() bool {
	if r.recognizer() != nil {
		return false
	}
	r.res.OCRWaiting += r.total
	return true
}

// recognizer is the engine, asked for once (extract.OCR.Engine).
func (r *Run) recognizer() extract.Recognizer {
	if r.engine == nil && r.opt.Engine != nil {
		r.engine = r.opt.Engine()
	}
	return r.engine
}

// Page returns the lines of the next page image, from the cache or the
// engine; an error from PageDone stops the reader with it (the run is
// ending).
func (r *Run) Page(ctx context.Context, img image.Image) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.progress()
	key := ocr.Key(img)
	lines, ok := r.cached(key)
	if !ok {
		var err error
		lines, err = r.recognizer().Recognize(ctx, img)
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, extract.Fail(MsgFailed, fmt.Errorf("extract: ocr page %d: %w", r.done+1, err))
		}
		if r.opt.PageDone != nil {
			if err := r.opt.PageDone(key, lines); err != nil {
				return nil, err
			}
		}
	}
	r.done++
	r.res.OCRPages++
	return lines, nil
}

// Finish reports the last progress (done of total).
func (r *Run) Finish() { r.progress() }

func (r *Run) progress() {
	if r.opt.Progress != nil {
		r.opt.Progress(r.done, r.total)
	}
}

func (r *Run) cached(key string) ([]string, bool) {
	if r.opt.Cached == nil {
		return nil, false
	}
	return r.opt.Cached(key)
}
