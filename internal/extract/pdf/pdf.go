// Package pdf reads PDF files (issue 20): the text of each page as the
// viewer copies it, in the engine's reading order, as places ページNNN
// (NNN the page's position in the file, 1-based: real pages, not
// estimates); the text of annotations (comments, notes, free text) as
// ページNNN[コメント]; the values of its form fields as ページNNN[フォーム]
// (form.go); the title and subject as 文書情報. Page text is decoded as
// UTF-16 as a whole, cleaned of what is no text, and cut to the page's
// crop box (text.go); glyphs of fonts without a Unicode map are read from
// the font's embedded program and its dictionary's glyph names, and a
// broken ToUnicode map is told by the font itself (glyphs.go, crop.go,
// fontdicts.go, brokenmap.go; the programs through package fontprog, the
// dictionaries through package pdfobj). A page that cannot be read is skipped with a log
// line naming it (PageLog); only a document none of whose pages can be
// read fails (issue 33). A document that
// needs a password to open gets extract.MsgPassword; one that only
// restricts printing or copying is read. Pages without a text layer that
// hold images (scans) are read by OCR when the worker gives the reader an
// engine (ocr.go: ページNNN（OCR）); without OCR, a document without any
// text whose pages hold images succeeds with no places and a log line
// naming the image-only pages, so users know which files need OCR.
package pdf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ocrpages"
	"github.com/fumibako/fumibako/internal/officefile"
)

func init() {
	extract.RegisterFormat(extract.Format{Name: "pdf", Extensions: []string{".pdf"}, Read: read})
}

// PlaceInfo is the place of the document's title and subject.
const PlaceInfo = "文書情報"

// MsgNoText is the log line of a PDF without a text layer; %d is the
// number of pages that hold only images (issue 20).
const MsgNoText = "文字のないPDFです（画像だけのページ: %d）"

// annotKey is the annotation entry holding its text (PDF 32000 12.5.2).
const annotKey = "Contents"

func read(ctx context.Context, path string, opt extract.Options) (*extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("extract: open pdf %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("extract: stat pdf %s: %w", path, err)
	}
	// A file named .pdf that is no PDF fails before the engine starts.
	if ff, err := officefile.Sniff(f, st.Size()); err != nil || ff != officefile.FormatPDF {
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: %s is no PDF (%v, %v)", path, ff, err))
	}
	engine.Lock()
	defer engine.Unlock()
	inst, err := instance(opt.MemLimit, opt.Preparing)
	if err != nil {
		return nil, err
	}
	engine.mem.reset()
	res, err := readDoc(ctx, inst, f, st.Size(), opt)
	switch {
	case err != nil && engine.mem.exhausted():
		// The module was refused memory past its bound (memory.go):
		// whatever failed after that, the document is too large.
		discard()
		return nil, extract.Fail(extract.MsgOutOfMemory, fmt.Errorf("extract: pdfium memory bound of %d bytes reached: %w", engine.mem.limit, err))
	case err != nil && !errors.Is(err, errRefused):
		// A failure past the open may have left the module in a bad
		// state: the next document gets a fresh instance.
		discard()
		return nil, err
	case err != nil:
		return nil, err
	case engine.mem.used() > engine.mem.limit/2:
		// A module memory never shrinks: after a large document a
		// fresh instance gives the memory back to the system.
		discard()
	case engine.glyphChars > maxGlyphChars:
		// The handles of characters read one by one (glyphs.go) stay
		// with the instance until it closes.
		discard()
	}
	return res, nil
}

// errRefused marks a document the engine refused to open (a password, a
// broken file): a clean answer that leaves the instance usable.
var errRefused = errors.New("extract: pdfium refused the document")

func readDoc(ctx context.Context, inst pdfium.Pdfium, f *os.File, size int64, opt extract.Options) (res *extract.Result, err error) {
	defer func() {
		// go-pdfium turns most module traps into errors; anything else
		// from a hostile file fails that file, not the worker.
		if r := recover(); r != nil {
			res, err = nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: pdfium panic: %v", r))
		}
	}()
	doc, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: size})
	switch {
	case errors.Is(err, pdferrors.ErrPassword):
		return nil, extract.Fail(extract.MsgPassword, fmt.Errorf("%w: it needs a password (%w)", errRefused, err))
	case errors.Is(err, pdferrors.ErrSecurity):
		return nil, extract.Fail(extract.MsgEncryptedOrBad, fmt.Errorf("%w: encryption not supported (%w)", errRefused, err))
	case errors.Is(err, pdferrors.ErrFormat), errors.Is(err, pdferrors.ErrFile):
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("%w: %w", errRefused, err))
	case err != nil:
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: open pdf: %w", err))
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	res = &extract.Result{}
	extract.AddPlace(res, PlaceInfo, info(inst, doc.Document))
	forms := openForms(inst, doc.Document)
	defer forms.close()
	n, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: pdf page count: %w", err))
	}
	// First every page's text, so that the pages needing OCR are known
	// (progress counts them) before the first is read; then the places in
	// page order.
	// A page that cannot be read is skipped with a log line naming it
	// (pdftotext keeps the others too); only a document none of whose
	// pages can be read fails.
	pages := make([]page, n.PageCount)
	fonts := &fontCache{dicts: docDicts{r: f, size: size}}
	var scans []int
	var firstErr error
	failed := 0
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := readPage(inst, doc.Document, forms, fonts, i)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("extract: pdf page %d: %w", i+1, err)
			}
			failed++
			p = page{failed: true}
			res.Log = append(res.Log, PageLog(i+1))
		}
		pages[i] = p
		if p.images && !hasText(p.lines) {
			scans = append(scans, i)
		}
	}
	if failed > 0 && failed == len(pages) {
		return nil, extract.Fail(extract.MsgCorrupt, firstErr)
	}
	var run *ocrpages.Run
	if opt.OCR != nil && len(scans) > 0 {
		run = ocrpages.New(opt.OCR, res, len(scans))
		if run.Waiting() {
			run = nil
		}
	}
	texts := 0
	for i, p := range pages {
		if p.failed {
			continue
		}
		name := extract.PageName(i + 1)
		before := len(res.Places)
		extract.AddPlace(res, name, p.lines)
		if len(res.Places) > before {
			texts++
		} else if run != nil && p.images {
			img, err := renderScan(inst, doc.Document, i)
			if err != nil {
				return nil, extract.Fail(extract.MsgCorrupt, err)
			}
			lines, err := run.Page(ctx, img)
			if err != nil {
				return nil, err
			}
			extract.AddPlace(res, extract.OCRPageName(i+1), lines)
		}
		extract.AddPlace(res, name+extract.PlaceComment, p.annots)
		extract.AddPlace(res, name+extract.PlaceForm, p.fields)
	}
	if run != nil {
		run.Finish()
	}
	if texts == 0 && len(scans) > 0 && res.OCRPages == 0 {
		res.Log = append(res.Log, "    "+fmt.Sprintf(MsgNoText, len(scans)))
		res.NoText = true
	}
	return res, nil
}

// hasText reports whether a page's lines hold more than white space (what
// AddPlace keeps).
func hasText(lines []string) bool {
	for _, l := range lines {
		if strings.TrimRight(l, " \t\r\n\u3000") != "" {
			return true
		}
	}
	return false
}

// info returns the document's title and subject.
func info(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT) []string {
	var lines []string
	for _, tag := range []string{"Title", "Subject"} {
		m, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc, Tag: tag})
		if err == nil {
			lines = append(lines, oneLine(m.Value))
		}
	}
	return lines
}

type page struct {
	lines  []string
	annots []string
	fields []string // form fields' values (form.go)
	images bool     // the page holds an image object
	failed bool     // the page could not be read (logged, skipped)
}

// PageLog is the log line of a page that could not be read and was
// skipped (the reference's line for a part of a file, naming the page).
func PageLog(n int) string {
	return "    一部を読み取れませんでした: " + extract.PageName(n)
}

func readPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, forms *formEnv, fonts *fontCache, i int) (page, error) {
	var p page
	pg, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		return p, err
	}
	defer inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page})
	ref := requests.Page{ByReference: &pg.Page}
	text, err := pageText(inst, ref, fonts, i)
	if err != nil {
		return p, err
	}
	p.lines = splitLines(text)
	if strings.TrimSpace(text) == "" {
		p.images = hasImage(inst, ref)
	}
	p.annots = annotations(inst, ref)
	var sigs []rect
	p.fields, sigs = forms.fields(ref)
	if len(sigs) > 0 {
		p.fields = append(p.fields, signatureTexts(inst, doc, ref, i, sigs)...)
	}
	return p, nil
}

// splitLines splits a page's text at the engine's line breaks.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

// oneLine joins a multi-line text with spaces (a comment's paragraphs,
// reference/extraction.md §3).
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.Join(splitLines(cleanText(s)), " ")), " ")
}

func hasImage(inst pdfium.Pdfium, pg requests.Page) bool {
	n, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: pg})
	if err != nil {
		return false
	}
	for j := 0; j < n.Count; j++ {
		o, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: pg, Index: j})
		if err != nil {
			continue
		}
		t, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.PageObject})
		if err == nil && t.Type == enums.FPDF_PAGEOBJ_IMAGE {
			return true
		}
	}
	return false
}

// annotations returns the text of the page's annotations, one line each;
// pop-ups repeat their parent's text and links have none worth indexing.
func annotations(inst pdfium.Pdfium, pg requests.Page) []string {
	n, err := inst.FPDFPage_GetAnnotCount(&requests.FPDFPage_GetAnnotCount{Page: pg})
	if err != nil {
		return nil
	}
	var lines []string
	for j := 0; j < n.Count; j++ {
		a, err := inst.FPDFPage_GetAnnot(&requests.FPDFPage_GetAnnot{Page: pg, Index: j})
		if err != nil {
			continue
		}
		st, err := inst.FPDFAnnot_GetSubtype(&requests.FPDFAnnot_GetSubtype{Annotation: a.Annotation})
		if err == nil && st.Subtype != enums.FPDF_ANNOT_SUBTYPE_POPUP && st.Subtype != enums.FPDF_ANNOT_SUBTYPE_LINK {
			v, err := inst.FPDFAnnot_GetStringValue(&requests.FPDFAnnot_GetStringValue{Annotation: a.Annotation, Key: annotKey})
			if err == nil {
				lines = append(lines, oneLine(v.Value))
			}
		}
		inst.FPDFPage_CloseAnnot(&requests.FPDFPage_CloseAnnot{Annotation: a.Annotation})
	}
	return lines
}
