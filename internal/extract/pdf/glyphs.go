package pdf

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/fumibako/fumibako/internal/extract/pdf/fontprog"
)

// Characters without a Unicode map (issue 33). When a font has no
// ToUnicode map and its encoding gives the engine no glyph name it knows,
// the engine flags the character (FPDFText_HasUnicodeMapError) and puts
// its character code in the text instead: \x01–\x1f for the glyphs of a
// subset numbered from 1 (LibreOffice's, pdfTeX's ligatures), or a letter
// that is not the glyph's ("0SVIQ" for "Lorem"). Such a character is
// recovered from the font's embedded program (package fontprog: its cmap and
// glyph names, its built-in encoding), as pdftotext and pdf.js do, and
// dropped when the program does not tell (cleanText).
//
// Only pages whose text holds a control character other than the line
// breaks, or whose font dictionaries say a font's codes may not be its
// text (fontdicts.go), are looked at character by character, so the text
// of ordinary PDFs is what the engine gives, byte for byte, and no call
// per character is made for them.

// maxFontFetches bounds how often one page fetches a font program (each
// fetch copies the program out of the engine).
const maxFontFetches = 256

// needsGlyphs reports whether a page's text holds codes of unmapped
// glyphs (control characters the engine does not generate).
func needsGlyphs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\r' && c != '\n' && c != '\t' {
			return true
		}
	}
	return false
}

// fontCache holds the programs read for a document, by the SHA-256 of
// their bytes (the engine's font handles are new on every call), and
// counts the characters looked at.
type fontCache struct {
	progs map[[32]byte]*fontprog.Program
	fonts map[pageFontKey]*pageFont
	chars int
	dicts docDicts // the font dictionaries (fontdicts.go)
}

// maxGlyphChars bounds the characters of one document looked at one by
// one: go-pdfium keeps every object and font handle it hands out (two a
// character) until its instance closes, so past this many a document's
// further unmapped codes are dropped, and the instance is replaced after
// the document (read).
const maxGlyphChars = 200_000

// recoverGlyphs replaces, in text (the UTF-16 of chars [0, n) as
// FPDFText_GetText gives it), the codes of unmapped characters with the
// text their font's /Differences names or program gives, and the
// characters of a broken ToUnicode map with their glyphs' own (dicts,
// fontdicts.go), and drops unmapped ones it cannot recover.
func recoverGlyphs(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n int, text string, fonts *fontCache, dicts pageDicts) string {
	if fonts.chars+n > maxGlyphChars {
		return text
	}
	fonts.chars += n
	engine.glyphChars += n // the caller holds the engine's lock
	units := utf16.Encode([]rune(text))
	// A recovered character replaces its code in the text; the engine
	// leaves some codes (\x02, \x03) out of the text altogether, and
	// such a character goes in before the next character that has a
	// place in the text.
	repl := map[int]string{}
	insert := map[int]string{}
	var pending strings.Builder
	textIndex := func(i int) int {
		ti, err := inst.FPDFText_GetTextIndexFromCharIndex(&requests.FPDFText_GetTextIndexFromCharIndex{TextPage: tp, NCharIndex: i})
		if err != nil || ti.TextIndex < 0 || ti.TextIndex >= len(units) {
			return -1
		}
		return ti.TextIndex
	}
	// First each character's font and whether the engine mapped it;
	// then every character of a font with an unmapped one takes its text
	// from the font's program: a font without a ToUnicode map can also
	// give codes that look like letters (" !\"#$" for "Q 1234"), which
	// the program tells right where it has names.
	chars, unmappedFonts := pageChars(inst, tp, n, fonts)
	for i, c := range chars {
		t, recovered := c.recovered(unmappedFonts, dicts)
		if !recovered {
			// The engine's character stands; a recovered one waiting
			// for its place goes in before it.
			if pending.Len() > 0 {
				if ti := textIndex(i); ti >= 0 {
					insert[ti] += pending.String()
					pending.Reset()
				}
			}
			continue
		}
		ti := textIndex(i)
		switch {
		case ti >= 0 && uint32(units[ti]) == c.code:
			if pending.Len() > 0 {
				insert[ti] += pending.String()
				pending.Reset()
			}
			// An unmapped character the program cannot tell is
			// dropped: what the engine put there is its code, even
			// when it looks like a letter.
			repl[ti] = t
		case ti < 0:
			pending.WriteString(t)
		}
	}
	if pending.Len() > 0 {
		insert[len(units)] += pending.String()
	}
	if len(repl) == 0 && len(insert) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i <= len(units); i++ {
		b.WriteString(insert[i])
		if i == len(units) {
			break
		}
		if t, ok := repl[i]; ok {
			b.WriteString(t)
			continue
		}
		r := rune(units[i])
		if utf16.IsSurrogate(r) && i+1 < len(units) {
			if d := utf16.DecodeRune(r, rune(units[i+1])); d != 0xfffd {
				b.WriteRune(d)
				i++
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// recovered returns the text that stands for a character of the page
// instead of the engine's: what its font's /Differences names or program
// tell for an unmapped code, or for any code of a font with an unmapped
// one, and a broken ToUnicode map's character's own text; "" and true for
// an unmapped code nothing recovers (it is dropped). false: the engine's
// character stands (a mapped one, or a code of a font nothing tells
// about: no program, no dictionary names).
func (c pageChar) recovered(unmappedFonts map[*pageFont]bool, dicts pageDicts) (string, bool) {
	t := ""
	switch {
	case c.font == nil:
	case unmappedFonts[c.font]:
		t = c.font.text(c.code, c.unmapped, dicts)
	case !c.unmapped:
		// A character of a broken ToUnicode map (fontdicts.go).
		t = dicts.remapped(c.font.name, c.code)
	}
	untold := c.font == nil || c.font.prog == nil && !dicts.has(c.font.name)
	if t == "" && (!c.unmapped || untold) {
		return "", false
	}
	return t, true
}

// pageChar is a character of a text page: its font, its code as the
// engine gives it, and whether the engine could not map it (then the code
// is the character code itself).
type pageChar struct {
	font     *pageFont
	code     uint32
	unmapped bool
}

// pageFont is a font as the engine shows it: its base font name (the
// engine leaves out a simple font's subset tag and keeps a Type 0 font's;
// a Type 3 font has none) and what its embedded program reads (nil: none,
// a Type 3 font, or past the fetches' bound).
type pageFont struct {
	name string
	prog *fontprog.Program
}

// text returns the text of a code of the font: its glyph's name in the
// font dictionary's /Differences (dicts, fontdicts.go) when the code is
// one (unmapped), else what the program tells; "" when neither tells.
func (f *pageFont) text(code uint32, unmapped bool, dicts pageDicts) string {
	if unmapped {
		if t := dicts.text(f.name, code); t != "" {
			return t
		}
	}
	if f.prog == nil || !unmapped && code >= 0x100 {
		// A mapped character past a byte is the engine's Unicode,
		// no code of a simple font.
		return ""
	}
	if unmapped && dicts.cid(f.name) && !f.prog.Builtin() {
		// A CID TrueType font's code is its glyph index.
		if t := f.prog.GlyphText(int(code)); !fontprog.NoText(t) {
			return t
		}
		return ""
	}
	return f.prog.Text(code)
}

// pageChars returns the characters [0, n) of a text page and the fonts
// with an unmapped character.
func pageChars(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n int, fonts *fontCache) ([]pageChar, map[*pageFont]bool) {
	chars := make([]pageChar, n)
	unmappedFonts := map[*pageFont]bool{}
	var cur *pageFont
	curName := "\x00"
	fetches := 0
	for i := range chars {
		u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		chars[i].code = uint32(u.Unicode)
		p := fontOf(inst, tp, i, fonts, &cur, &curName, &fetches)
		if p == nil {
			continue
		}
		e, err := inst.FPDFText_HasUnicodeMapError(&requests.FPDFText_HasUnicodeMapError{TextPage: tp, Index: i})
		chars[i] = pageChar{font: p, code: uint32(u.Unicode), unmapped: err == nil && e.HasUnicodeMapError}
		if chars[i].unmapped {
			unmappedFonts[p] = true
		}
	}
	return chars, unmappedFonts
}

// fontOf returns the font of char i, fetched once for a run of characters
// of one text object (cur, curName) and its program at most
// maxFontFetches times a page. The engine's handles are new on every
// call and its base font name leaves out a simple font's subset tag (two
// subsets of one font are two fonts with one name), so the run is told by
// the object's bounds and the font's name together.
func fontOf(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int, fonts *fontCache, cur **pageFont, curName *string, fetches *int) *pageFont {
	obj, err := inst.FPDFText_GetTextObject(&requests.FPDFText_GetTextObject{TextPage: tp, Index: i})
	if err != nil {
		return nil
	}
	font, err := inst.FPDFTextObj_GetFont(&requests.FPDFTextObj_GetFont{PageObject: obj.TextObject})
	if err != nil {
		return nil
	}
	base := ""
	if bn, err := inst.FPDFFont_GetBaseFontName(&requests.FPDFFont_GetBaseFontName{Font: font.Font}); err == nil {
		base = bn.BaseFontName
	}
	name := base
	if b, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.TextObject}); err == nil {
		name = fmt.Sprintf("%s %g %g %g %g", name, b.Left, b.Bottom, b.Right, b.Top)
	}
	if name == *curName {
		return *cur
	}
	*curName = name
	var p *fontprog.Program
	if *fetches < maxFontFetches {
		*fetches++
		if d, err := inst.FPDFFont_GetFontData(&requests.FPDFFont_GetFontData{Font: font.Font}); err == nil && len(d.FontData) > 0 {
			key := sha256.Sum256(d.FontData)
			var ok bool
			if p, ok = fonts.progs[key]; !ok {
				p = fontprog.Parse(d.FontData)
				if fonts.progs == nil {
					fonts.progs = map[[32]byte]*fontprog.Program{}
				}
				fonts.progs[key] = p
			}
		}
	}
	// One font of a name and program for the document, so that the
	// characters of its runs count as one font's.
	k := pageFontKey{base, p}
	pf, ok := fonts.fonts[k]
	if !ok {
		pf = &pageFont{name: base, prog: p}
		if fonts.fonts == nil {
			fonts.fonts = map[pageFontKey]*pageFont{}
		}
		fonts.fonts[k] = pf
	}
	*cur = pf
	return pf
}

type pageFontKey struct {
	name string
	prog *fontprog.Program
}
