// Package image reads scanned and faxed image files by OCR (issue 29):
// .tif .tiff (every page of a multi-page TIFF, as fax machines and
// scanner software write them), .png, .jpg .jpeg and .bmp. The format is
// told from the content, not the extension. Each page goes through the
// extract.OCR seam (internal/ocrpages): its lines become the place
// 画像（OCR） for a one-page file, 画像NNN（OCR） for page NNN of a
// multi-page TIFF.
//
// Bounds: a page whose size (image.DecodeConfig, read before any pixel)
// is over ocr.MaxDecodePixels fails the file with ocr.MsgTooLarge without
// being decoded; a TIFF's IFD chain is walked by this package (tiff.go:
// page count, offsets inside the file, loops, strip sizes) before the
// decoder sees a page. A file that is no image of these formats, or whose
// every page is broken, fails with extract.MsgCorrupt; a broken page among
// good ones is skipped with a log line.
//
// Without opt.OCR the crawl never hands images to this reader (image files
// are targets only of roots that read images); reached anyway, it
// succeeds with no places. Without an engine (opt.OCR.Engine nil) the
// pages are counted in Result.OCRWaiting and not decoded.
package image

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ocrpages"
	"github.com/fumibako/fumibako/internal/ocr"
)

func init() {
	// The reader tells TIFF, PNG, JPEG and BMP from their bytes, under
	// any of these names (OwnSignatures: officefile.Foreign calls them
	// foreign).
	extract.RegisterFormat(extract.Format{Name: "image", Extensions: extract.ImageExtensions, Read: read, OwnSignatures: true})
}

// MsgBadPage is the log line of a page that could not be decoded; %d is
// its number.
const MsgBadPage = "読み取れないページがあります: %d ページ目"

// errFormat is the cause of a file that is no image of a known format.
var errFormat = errors.New("extract: not a TIFF, PNG, JPEG or BMP image")

func read(ctx context.Context, path string, opt extract.Options) (*extract.Result, error) {
	res := &extract.Result{}
	if opt.OCR == nil {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := Open(f, size)
	if err != nil {
		return nil, err
	}
	n := src.Pages()
	run := ocrpages.New(opt.OCR, res, n)
	if run.Waiting() {
		return res, nil
	}
	bad := 0
	var firstErr error
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img, err := src.Page(i)
		var tooLarge *extract.Error
		switch {
		case errors.As(err, &tooLarge):
			return nil, err
		case err != nil:
			bad++
			firstErr = cmpOr(firstErr, err)
			res.Log = append(res.Log, "    "+fmt.Sprintf(MsgBadPage, i+1))
			continue
		}
		// The page as Tesseract should see it, at about 300 dpi;
		// the decoded image is dropped before recognition.
		x, y := src.Resolution(i)
		page := ocr.Prepare(img, x, y)
		img = nil
		lines, err := run.Page(ctx, page)
		if err != nil {
			return nil, err
		}
		name := extract.PlaceImageOCR
		if n > 1 {
			name = extract.OCRImageName(i + 1)
		}
		extract.AddPlace(res, name, lines)
	}
	if bad == n {
		return nil, extract.Corrupt(firstErr)
	}
	run.Finish()
	return res, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Source is an image file's pages.
type Source struct {
	r      io.ReaderAt
	size   int64
	format string
	ifds   []ifd // TIFF: each page's IFD
}

// Open tells the format of an image file from its first bytes and, for a
// TIFF, walks its pages. A file of no known format fails with
// extract.MsgCorrupt.
func Open(r io.ReaderAt, size int64) (*Source, error) {
	var head [8]byte
	n, _ := r.ReadAt(head[:], 0)
	h := head[:n]
	s := &Source{r: r, size: size}
	switch {
	case bytes.HasPrefix(h, []byte("II*\x00")), bytes.HasPrefix(h, []byte("MM\x00*")):
		ifds, err := walkTIFF(r, size)
		if err != nil {
			return nil, extract.Corrupt(err)
		}
		s.format, s.ifds = "tiff", ifds
	case bytes.HasPrefix(h, []byte("\x89PNG\r\n\x1a\n")):
		s.format = "png"
	case bytes.HasPrefix(h, []byte("\xff\xd8")):
		s.format = "jpeg"
	case bytes.HasPrefix(h, []byte("BM")):
		s.format = "bmp"
	default:
		return nil, extract.Corrupt(fmt.Errorf("%w (starts with % x)", errFormat, h))
	}
	return s, nil
}

// Pages is the number of pages (1 but for a multi-page TIFF).
func (s *Source) Pages() int {
	if s.format == "tiff" {
		return len(s.ifds)
	}
	return 1
}

// Page decodes page i (0-based), after checking its size: a page over
// ocr.MaxDecodePixels is an *extract.Error with ocr.MsgTooLarge.
func (s *Source) Page(i int) (img image.Image, err error) {
	defer func() {
		// A decoder's panic on a hostile file fails that page.
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("extract: %s decoder panic: %v", s.format, r)
		}
	}()
	var config func(io.Reader) (image.Config, error)
	var decode func(io.Reader) (image.Image, error)
	switch s.format {
	case "tiff":
		config, decode = tiff.DecodeConfig, tiff.Decode
	case "png":
		config, decode = png.DecodeConfig, png.Decode
	case "jpeg":
		config, decode = jpeg.DecodeConfig, jpeg.Decode
	case "bmp":
		config, decode = bmp.DecodeConfig, bmp.Decode
	}
	cfg, err := config(s.reader(i))
	if err != nil {
		return nil, fmt.Errorf("extract: %s page %d header: %w", s.format, i+1, err)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > ocr.MaxDecodePixels || cfg.Width <= 0 || cfg.Height <= 0 {
		if px <= 0 {
			return nil, fmt.Errorf("extract: %s page %d is %d×%d pixels", s.format, i+1, cfg.Width, cfg.Height)
		}
		return nil, extract.Fail(ocr.MsgTooLarge, fmt.Errorf("extract: %s page %d is %d×%d pixels, over %d", s.format, i+1, cfg.Width, cfg.Height, ocr.MaxDecodePixels))
	}
	img, err = decode(s.reader(i))
	if err != nil {
		return nil, fmt.Errorf("extract: %s page %d: %w", s.format, i+1, err)
	}
	return img, nil
}

// reader returns a fresh reader of page i: for a TIFF, the file seen
// with its first-IFD offset pointing at page i's IFD, which is the only
// IFD x/image/tiff decodes.
func (s *Source) reader(i int) io.Reader {
	if s.format != "tiff" {
		return bufio.NewReaderSize(io.NewSectionReader(s.r, 0, s.size), 64<<10)
	}
	return newIFDReader(s.r, s.size, s.ifds[i].off)
}

// Resolution returns the dots per inch page i (0-based) states, each
// way, or 0, 0: a TIFF's resolution tags, a PNG's pHYs chunk, a JPEG's
// JFIF density, a BMP's pixels per metre.
func (s *Source) Resolution(i int) (x, y float64) {
	switch s.format {
	case "tiff":
		return s.ifds[i].xdpi, s.ifds[i].ydpi
	case "png":
		return pngResolution(s.r, s.size)
	case "jpeg":
		return jfifResolution(s.r)
	case "bmp":
		var b [8]byte
		if _, err := s.r.ReadAt(b[:], 38); err != nil {
			return 0, 0
		}
		return sane(float64(int32(binary.LittleEndian.Uint32(b[:])))*0.0254, float64(int32(binary.LittleEndian.Uint32(b[4:])))*0.0254)
	}
	return 0, 0
}

// sane keeps a stated resolution only when it could be a scan's: 72 and
// 96 dpi are what software writes when it knows none (screenshots, photos,
// drawings), and under 90 dpi no scanner or fax machine works.
func sane(x, y float64) (float64, float64) {
	screen := func(v float64) bool { return math.Abs(v-72) < 0.5 || math.Abs(v-96) < 0.5 }
	if x < 90 || y < 90 || x > 4800 || y > 4800 || screen(x) && screen(y) {
		return 0, 0
	}
	return x, y
}

// pngResolution reads the pHYs chunk (PNG §11.3.5.3: pixels per unit x,
// y, unit 1 = metre), which comes before the image data; it looks at the
// first 64 chunks at most.
func pngResolution(r io.ReaderAt, size int64) (float64, float64) {
	off := int64(8)
	for n := 0; n < 64 && off+8 <= size; n++ {
		var h [8]byte
		if _, err := r.ReadAt(h[:], off); err != nil {
			return 0, 0
		}
		length, typ := int64(binary.BigEndian.Uint32(h[:])), string(h[4:])
		switch typ {
		case "pHYs":
			var d [9]byte
			if length != 9 {
				return 0, 0
			}
			if _, err := r.ReadAt(d[:], off+8); err != nil || d[8] != 1 {
				return 0, 0
			}
			return sane(float64(binary.BigEndian.Uint32(d[:]))*0.0254, float64(binary.BigEndian.Uint32(d[4:]))*0.0254)
		case "IDAT", "IEND":
			return 0, 0
		}
		off += 12 + length
	}
	return 0, 0
}

// jfifResolution reads the JFIF APP0 segment right after SOI (units 1 =
// dots per inch, 2 = per centimetre; 0 = an aspect ratio only).
func jfifResolution(r io.ReaderAt) (float64, float64) {
	var b [18]byte
	if _, err := r.ReadAt(b[:], 0); err != nil {
		return 0, 0
	}
	if b[2] != 0xff || b[3] != 0xe0 || string(b[6:11]) != "JFIF\x00" {
		return 0, 0
	}
	x, y := float64(binary.BigEndian.Uint16(b[14:])), float64(binary.BigEndian.Uint16(b[16:]))
	switch b[13] {
	case 1:
		return sane(x, y)
	case 2:
		return sane(x*2.54, y*2.54)
	}
	return 0, 0
}
