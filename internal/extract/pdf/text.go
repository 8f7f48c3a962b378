package pdf

import (
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/fumibako/fumibako/internal/extract/pdf/fontprog"
)

// The text of a page (issue 33).
//
// The engine's text page holds one entry per UTF-16 code unit: a character
// outside the BMP (𠮟 U+20B9F, 𩸽, 𠮷, emoji) is two entries, a high and a
// low surrogate. go-pdfium's GetPageText turns each entry into a rune of
// its own, so both halves became U+FFFD; the page's text is therefore
// taken in one FPDFText_GetText call, which returns the UTF-16LE of the
// whole range, and decoded as a whole (surrogate pairs become one rune).
//
// A page whose crop box is smaller than its media box shows only part of
// its content: PDF writers that cut several pages out of one shared
// content stream (n-up splitters, imposition tools) give every page the
// whole stream, so such a page's text is the text inside its crop box
// (FPDFText_GetBoundedText), as pdftotext reads it.
//
// Characters the engine could not map (a font without a ToUnicode map and
// without glyph names it knows) come out as their codes: on a page with
// control characters, or with a font whose dictionary calls for it
// (fontdicts.go), they are recovered from the font's /Differences names
// and program where they tell (glyphs.go; on a cropped page too, whose
// characters inside the crop box are laid out as the engine's bounded
// text lays them out, crop.go), and what is still a control
// character, U+FFFD or a noncharacter is dropped (cleanText) instead of
// being indexed.
// A Latin ligature the font maps to its presentation form (ﬁ U+FB01, ﬃ)
// becomes its letters, as pdftotext writes it, so `office` typed by the
// user finds `o\ufb03ce`.

// pageText returns the text of a page as the engine lays it out, lines
// separated by CR LF, cleaned of what is no text.
func pageText(inst pdfium.Pdfium, pg requests.Page, fonts *fontCache, index int) (string, error) {
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: pg})
	if err != nil {
		return "", err
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return "", err
	}
	if n.Count <= 0 {
		return "", nil
	}
	if box, ok := cropped(inst, pg); ok {
		t, err := inst.FPDFText_GetBoundedText(&requests.FPDFText_GetBoundedText{
			TextPage: tp.TextPage, Left: box.left, Top: box.top, Right: box.right, Bottom: box.bottom,
		})
		if err != nil {
			return "", err
		}
		text := t.Text
		// The same test as below, on the text inside the box: a
		// cropped page is read character by character too, keeping
		// the characters the engine's bounded text keeps (crop.go).
		if dicts := fonts.dicts.page(index); dicts != nil || needsGlyphs(text) {
			text = recoverBoundedGlyphs(inst, tp.TextPage, n.Count, box, text, fonts, dicts)
		}
		return cleanText(text), nil
	}
	t, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, StartIndex: 0, Count: n.Count})
	if err != nil {
		return "", err
	}
	text := t.Text
	// A page with codes of unmapped glyphs, or with a font whose
	// dictionary says its codes may not be its text (fontdicts.go), is
	// read character by character.
	if dicts := fonts.dicts.page(index); dicts != nil || needsGlyphs(text) {
		text = recoverGlyphs(inst, tp.TextPage, n.Count, text, fonts, dicts)
	}
	return cleanText(text), nil
}

// rect is a rectangle in page space (PDF points, y up).
type rect struct{ left, bottom, right, top float64 }

// cropEpsilon is how far (in points) a crop box may lie inside the media
// box and still count as the whole page: writers round the boxes.
const cropEpsilon = 1

// cropped returns the page's crop box when it cuts off part of the media
// box; a page without its own crop box, or with one as large as its media
// box, has none.
func cropped(inst pdfium.Pdfium, pg requests.Page) (rect, bool) {
	c, err := inst.FPDFPage_GetCropBox(&requests.FPDFPage_GetCropBox{Page: pg})
	if err != nil {
		return rect{}, false
	}
	m, err := inst.FPDFPage_GetMediaBox(&requests.FPDFPage_GetMediaBox{Page: pg})
	if err != nil {
		return rect{}, false
	}
	crop := normRect(rect{float64(c.Left), float64(c.Bottom), float64(c.Right), float64(c.Top)})
	media := normRect(rect{float64(m.Left), float64(m.Bottom), float64(m.Right), float64(m.Top)})
	if crop.right-crop.left <= 0 || crop.top-crop.bottom <= 0 {
		return rect{}, false
	}
	if crop.left <= media.left+cropEpsilon && crop.bottom <= media.bottom+cropEpsilon &&
		crop.right >= media.right-cropEpsilon && crop.top >= media.top-cropEpsilon {
		return rect{}, false
	}
	return crop, true
}

// normRect orders a rectangle's corners (PDF allows either order).
func normRect(r rect) rect {
	if r.left > r.right {
		r.left, r.right = r.right, r.left
	}
	if r.bottom > r.top {
		r.bottom, r.top = r.top, r.bottom
	}
	return r
}

// cleanText drops what a page's text must not index: control characters
// other than the line breaks and tabs the engine generates (a glyph
// without a Unicode map comes out as its code, \x02–\x08 for a Type 3
// font's or a ligature's glyphs), U+FFFD (a code unit that could not be
// decoded), lone surrogates and noncharacters. A tab becomes a space:
// PDF lines are no cells.
func cleanText(s string) string {
	clean := true
	for _, r := range s {
		if fontprog.IsNoText(r) || r == '\t' || ligatures[r] != "" {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case ligatures[r] != "":
			b.WriteString(ligatures[r])
		case fontprog.IsNoText(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ligatures are the Latin ligatures of Unicode's Alphabetic Presentation
// Forms block (U+FB00–U+FB06) with their letters.
var ligatures = map[rune]string{
	0xfb00: "ff", 0xfb01: "fi", 0xfb02: "fl", 0xfb03: "ffi", 0xfb04: "ffl", 0xfb05: "st", 0xfb06: "st",
}
