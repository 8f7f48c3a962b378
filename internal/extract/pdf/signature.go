package pdf

import (
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// The visible text of signature fields (issue 33). A signed PDF shows,
// in its signature field's widget, who signed and when ("Signed by
// YAMADA Taro", "2026-12-05"): the widget's appearance stream, not the
// page's content, and the field's value is a signature dictionary with
// no text. The engine's text page reads only the page's content, and
// the objects of an appearance stream have no text page, so the page is
// flattened (FPDFPage_Flatten: each annotation's appearance becomes
// part of the page's content, in this loaded copy of the document only;
// nothing is written), loaded again, and the text inside each signature
// widget's rectangle is taken from it, less the text the page itself
// has there (a printed "署名欄" under the field). It is read after
// everything else of the page, which the flattening changes.

// signatureTexts returns the text of the signature widgets at rects on
// page i, one line each; pg is the loaded page, flattened here.
func signatureTexts(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pg requests.Page, i int, rects []rect) []string {
	before := boundedTexts(inst, pg, rects)
	if _, err := inst.FPDFPage_Flatten(&requests.FPDFPage_Flatten{Page: pg, Usage: requests.FPDFPage_FlattenUsageNormalDisplay}); err != nil {
		return nil
	}
	// The flattened content is seen by a page loaded anew.
	np, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		return nil
	}
	defer inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: np.Page})
	after := boundedTexts(inst, requests.Page{ByReference: &np.Page}, rects)
	var lines []string
	for j, t := range after {
		if j < len(before) && before[j] != "" {
			t = strings.Replace(t, before[j], "", 1)
		}
		if l := oneLine(t); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// boundedTexts returns the page's text inside each rectangle; "" where
// the engine gives none.
func boundedTexts(inst pdfium.Pdfium, pg requests.Page, rects []rect) []string {
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: pg})
	if err != nil {
		return nil
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	texts := make([]string, len(rects))
	for j, r := range rects {
		t, err := inst.FPDFText_GetBoundedText(&requests.FPDFText_GetBoundedText{
			TextPage: tp.TextPage, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom,
		})
		if err == nil {
			texts[j] = t.Text
		}
	}
	return texts
}
