package pdf

import (
	"unicode/utf16"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Unmapped glyphs of a cropped page (issue 33). A cropped page's text is
// the engine's text inside its crop box (FPDFText_GetBoundedText, text.go),
// which the engine assembles from its character list, not from the page
// text recoverGlyphs edits. So a cropped page that calls for reading its
// characters one by one is assembled here from the same list, as the
// engine assembles its bounded text (PDFium CPDF_TextPage::GetTextByRect
// and GetTextByPredicate), with each character's text replaced where the
// font tells another (pageChar.recovered):
//
//   - a character is inside when its box (FPDFText_GetCharBox) and the
//     crop box overlap with an area (both normalised; touching edges are
//     no overlap);
//   - an inside character whose origin's y differs from the last line's,
//     after a character outside that was no space, starts a new line
//     (CR LF, none before the first text);
//   - an outside space after an inside character is kept as one space;
//   - an inside character with the code 0 adds nothing.
//
// Nothing recovered, this gives the engine's bounded text unit for unit
// (TestBoundedTextAsEngine), so the only difference is the recovered
// characters'.

// recoverBoundedGlyphs returns the text of the characters [0, n) of a text
// page inside box, with the text their fonts tell (glyphs.go) in place of
// the engine's codes; the engine's bounded text (bounded) when the
// document is past maxGlyphChars or a character cannot be read.
func recoverBoundedGlyphs(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n int, box rect, bounded string, fonts *fontCache, dicts pageDicts) string {
	if fonts.chars+n > maxGlyphChars {
		return bounded
	}
	fonts.chars += n
	engine.glyphChars += n // the caller holds the engine's lock
	chars, unmappedFonts := pageChars(inst, tp, n, fonts)
	at, ok := boundedChars(inst, tp, chars)
	if !ok {
		return bounded
	}
	for i, c := range chars {
		at[i].text, at[i].recovered = c.recovered(unmappedFonts, dicts)
	}
	return boundedText(at, normRect(box))
}

// boundedChars returns the characters of a text page with their boxes and
// origins, the engine's codes standing; false when one cannot be read.
func boundedChars(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, chars []pageChar) ([]boundedChar, bool) {
	at := make([]boundedChar, len(chars))
	for i, c := range chars {
		b, err := inst.FPDFText_GetCharBox(&requests.FPDFText_GetCharBox{TextPage: tp, Index: i})
		if err != nil {
			return nil, false
		}
		o, err := inst.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp, Index: i})
		if err != nil {
			return nil, false
		}
		at[i] = boundedChar{
			code: c.code, y: o.Y,
			box: normRect(rect{left: b.Left, bottom: b.Bottom, right: b.Right, top: b.Top}),
		}
	}
	return at, true
}

// boundedChar is a character of the page as the bounded text reads it:
// the engine's code, its box and origin's y, and the text recovered for
// it (recovered false: the engine's code stands).
type boundedChar struct {
	code      uint32
	box       rect
	y         float64
	text      string
	recovered bool
}

// boundedText assembles the text of the characters inside box (see the
// comment above).
func boundedText(chars []boundedChar, box rect) string {
	var units []uint16
	posY := 0.0
	prevInside, lineFeed := false, false
	for _, c := range chars {
		switch {
		case overlaps(box, c.box):
			if posY != c.y && !prevInside && lineFeed {
				posY = c.y
				if len(units) > 0 {
					units = append(units, '\r', '\n')
				}
			}
			prevInside, lineFeed = true, false
			switch {
			case c.recovered:
				units = append(units, utf16.Encode([]rune(c.text))...)
			case c.code != 0:
				if c.code > 0xffff {
					units = append(units, utf16.Encode([]rune{rune(c.code)})...)
				} else {
					units = append(units, uint16(c.code))
				}
			}
		case c.code == ' ':
			if prevInside {
				units = append(units, ' ')
				prevInside, lineFeed = false, false
			}
		default:
			prevInside, lineFeed = false, true
		}
	}
	return string(utf16.Decode(units))
}

// overlaps reports whether two normalised rectangles share an area.
func overlaps(a, b rect) bool {
	return max(a.left, b.left) < min(a.right, b.right) && max(a.bottom, b.bottom) < min(a.top, b.top)
}
