package pdf

import (
	"fmt"
	"image"
	"math"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/fumibako/fumibako/internal/ocr"
)

// OCR of image-only pages (issue 29). A page with a text layer is never
// OCRed, so a scan that already carries an OCR text layer is read as text.
// An image-only page is rendered by the engine in gray at ocr.DPI
// (300 dpi), or, when the page is one image covering it (what scanners
// write), at that image's own resolution between minScanDPI and
// maxScanDPI, so that Tesseract sees the scan's pixels without a
// resampling and whatever mask, rotation or crop the page applies to it;
// in both cases at most ocr.MaxPixels pixels. A gray page of
// ocr.MaxPixels is 20 MB in the engine's memory, well inside its bound
// (memory.go, 128 MiB at least); it is copied out and freed before the
// next page.
const (
	minScanDPI = 150
	maxScanDPI = 600
	// coverShare: an image covering this share of the page's area is
	// the page.
	coverShare = 0.9
)

// scanDPI returns the resolution to render page pg (w×h points) at: its
// single image's when it has one that covers it, else ocr.DPI; capped so
// that the rendering holds at most ocr.MaxPixels pixels.
func scanDPI(inst pdfium.Pdfium, pg requests.Page, w, h float64) float64 {
	dpi := float64(ocr.DPI)
	if px, ok := coveringImage(inst, pg, w, h); ok {
		dpi = min(max(px/(w/72), minScanDPI), maxScanDPI)
	}
	if pixels := (w / 72 * dpi) * (h / 72 * dpi); pixels > ocr.MaxPixels {
		dpi = math.Sqrt(ocr.MaxPixels * 72 * 72 / (w * h))
	}
	return dpi
}

// coveringImage returns the pixel width of the page's image when the page
// is one image object covering it.
func coveringImage(inst pdfium.Pdfium, pg requests.Page, w, h float64) (float64, bool) {
	n, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: pg})
	if err != nil || n.Count != 1 {
		return 0, false
	}
	o, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: pg, Index: 0})
	if err != nil {
		return 0, false
	}
	t, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.PageObject})
	if err != nil || t.Type != enums.FPDF_PAGEOBJ_IMAGE {
		return 0, false
	}
	b, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: o.PageObject})
	if err != nil || float64(b.Right-b.Left)*float64(b.Top-b.Bottom) < coverShare*w*h {
		return 0, false
	}
	s, err := inst.FPDFImageObj_GetImagePixelSize(&requests.FPDFImageObj_GetImagePixelSize{ImageObject: o.PageObject})
	if err != nil || s.Width == 0 || s.Height == 0 {
		return 0, false
	}
	// A page turned by a quarter shows the image's height across.
	px := float64(s.Width)
	if (b.Right-b.Left > b.Top-b.Bottom) != (s.Width > s.Height) {
		px = float64(s.Height)
	}
	return px, true
}

// renderScan renders page i of doc in gray for OCR (see above).
func renderScan(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, i int) (*image.Gray, error) {
	size, err := inst.FPDF_GetPageSizeByIndex(&requests.FPDF_GetPageSizeByIndex{Document: doc, Index: i})
	if err != nil {
		return nil, err
	}
	w, h := size.Width, size.Height
	if !(w > 0 && h > 0) || math.IsInf(w*h, 0) {
		return nil, fmt.Errorf("extract: pdf page %d is %g×%g points", i+1, w, h)
	}
	pg := requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: i}}
	dpi := scanDPI(inst, pg, w, h)
	r, err := inst.RenderPageInDPI(&requests.RenderPageInDPI{Page: pg, DPI: max(int(dpi), 1), ImageFormat: requests.RenderImageFormatGrayscale})
	if err != nil {
		return nil, fmt.Errorf("extract: render pdf page %d at %d dpi: %w", i+1, int(dpi), err)
	}
	defer r.Cleanup()
	g, ok := r.Result.RenderedImage.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("extract: pdf page %d rendered as %T", i+1, r.Result.RenderedImage)
	}
	// The pixels live in the engine's memory until Cleanup: copy them.
	out := image.NewGray(image.Rect(0, 0, g.Rect.Dx(), g.Rect.Dy()))
	for y := 0; y < out.Rect.Dy(); y++ {
		copy(out.Pix[y*out.Stride:(y+1)*out.Stride], g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):])
	}
	return out, nil
}
