package pdf

import (
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/pdf/fontprog"
	"github.com/fumibako/fumibako/internal/extract/pdf/pdfobj"
)

// Font dictionaries (issue 33). The engine's API gives a font's base name,
// flags and program but not its dictionary, so a font without a ToUnicode
// map whose text the engine cannot tell leaves no trace in the page's text
// when its codes look like letters: a TrueType subset whose codes are
// given in order of use reads "!\"#$%" for "Lorem", a Type 3 font's
// glyphs "ABCD" for "TYPE". The engine flags each such character
// (FPDFText_HasUnicodeMapError) and gives its character code, but finding
// them takes calls per character, which ordinary pages must not pay. So
// the font dictionaries of the page's resources (and of the forms it
// draws) are read with package pdfobj, and a page is read character by
// character (glyphs.go) when one of its fonts has no /ToUnicode and:
//
//   - is a Type 3 font whose /Differences names a glyph with a text (the
//     engine reads no Type 3 glyph names: every code is flagged);
//   - is a simple font (Type1, MMType1, TrueType) whose /Differences names
//     a glyph with a text the engine does not read: a name of components
//     (f_f_i, T_h, uni30C630C8) or a number of a font whose names are all
//     numbers (a65, G4C: fontprog's numeric.go) – single names of the
//     Adobe Glyph List, uniXXXX and uXXXX the engine reads itself;
//   - is a TrueType font with its program embedded (FontFile2), flagged
//     symbolic or without /Encoding: its codes reach glyphs through its own
//     cmap, whose names or Unicode cmap the program tells (package fontprog);
//   - is a CID TrueType font (Type 0, Identity-H/V, /CIDToGIDMap
//     /Identity) with its program embedded: its codes are glyph indexes,
//     which the program's names or Unicode cmap tell.
//
// Then an unmapped character takes the text of its code's name in
// /Differences, else its program's (and every character of a font with
// an unmapped one takes its program's text, as before).
//
// A CID TrueType font of that kind, or a simple font with its program
// embedded, that has a ToUnicode map is checked once a document
// (brokenmap.go): when the map contradicts the font's own text and gives
// letters of another script (Latin or Cyrillic written as Hangul by a map
// off by a constant), the map is broken, and each character the map gives
// on the page becomes its glyph's own, where the glyphs that share it
// agree.
//
// A dictionary matches the engine's font by its /BaseFont less the subset
// tag (ABCDEF+), a Type 3 font by having none (the engine gives none for
// it); fonts of one page that share a name and disagree on a code's text
// give none.
//
// The dictionaries are read once a document, at its first page, lazily:
// the cross-reference sections, the page tree and each page's font
// dictionaries, never a content stream. A document whose objects cannot be
// read (pdfobj fails, or panics: recovered here) keeps the engine's text,
// and pages with control characters still go through glyphs.go as before.

// docDicts is a document's page tree as pdfobj reads it, opened on the
// first page that asks.
type docDicts struct {
	r      io.ReaderAt
	size   int64
	opened bool
	file   *pdfobj.File
	pages  []pdfobj.Page
	err    error // why the objects could not be read (for tests)
	// checked are the fonts whose ToUnicode map was checked
	// (brokenmap.go), by their object and by the SHA-256 of their
	// program and map: a broken map's remapping, nil when it is sound.
	checked map[pdfobj.Ref]*dictFont
	remaps  map[[32]byte]*dictFont
}

// pageDicts are the font dictionaries of a page that call for reading it
// character by character, by the engine's font name less its subset tag;
// nil when none does.
type pageDicts map[string]*dictFont

// dictFont is what the dictionaries of the fonts of one name tell: the
// text of codes their /Differences name ("" where fonts of the name
// disagree), whether they are CID fonts whose codes are glyph indexes
// (Identity), and for a broken ToUnicode map the text each of its
// characters stands for (from the glyph's own Unicode cmap).
type dictFont struct {
	names map[uint32]string
	cid   bool
	remap map[rune]string
}

// font returns the dictionaries of the engine's font name.
func (d pageDicts) font(name string) *dictFont {
	if d == nil {
		return nil
	}
	return d[stripSubsetTag(name)]
}

// has reports whether a font of the name has a dictionary that tells.
func (d pageDicts) has(name string) bool { return d.font(name) != nil }

// text returns the text of a code of the font of the name.
func (d pageDicts) text(name string, code uint32) string {
	if f := d.font(name); f != nil {
		return f.names[code]
	}
	return ""
}

// cid reports whether the font of the name is a CID font whose codes are
// its glyph indexes.
func (d pageDicts) cid(name string) bool {
	f := d.font(name)
	return f != nil && f.cid
}

// remapped returns the text a character of a broken ToUnicode map stands
// for, "" when the map is not known broken or the character ambiguous.
func (d pageDicts) remapped(name string, u uint32) string {
	if f := d.font(name); f != nil && u <= 0x10ffff {
		return f.remap[rune(u)]
	}
	return ""
}

// page returns the dictionaries of page i that call for reading it
// character by character (nil when none does).
func (d *docDicts) page(i int) (pd pageDicts) {
	if d.r == nil {
		return nil
	}
	defer func() {
		// The objects come from the file: whatever pdfobj did not
		// foresee leaves the page to the engine.
		if r := recover(); r != nil {
			d.err = fmt.Errorf("extract: pdf font dictionaries: panic: %v", r)
			d.file, d.pages, pd = nil, nil, nil
		}
	}()
	if !d.opened {
		d.opened = true
		d.file, d.err = pdfobj.Open(d.r, d.size)
		if d.err == nil {
			d.pages = d.file.Pages()
		}
	}
	if d.file == nil || i < 0 || i >= len(d.pages) {
		return nil
	}
	for _, f := range d.file.PageFonts(d.pages[i]) {
		df := d.fontOf(f)
		if df == nil {
			continue
		}
		if pd == nil {
			pd = pageDicts{}
		}
		key := engineFontName(f)
		m, seen := pd[key]
		if !seen {
			pd[key] = df
			continue
		}
		// Fonts of one name: a code they disagree on has no text.
		merged := &dictFont{names: map[uint32]string{}, cid: m.cid && df.cid}
		for code, t := range m.names {
			merged.names[code] = t
		}
		for code, t := range df.names {
			if old, ok := merged.names[code]; ok && old != t {
				merged.names[code] = ""
			} else if !ok {
				merged.names[code] = t
			}
		}
		for r, t := range m.remap {
			if df.remap[r] == t {
				if merged.remap == nil {
					merged.remap = map[rune]string{}
				}
				merged.remap[r] = t
			}
		}
		pd[key] = merged
	}
	return pd
}

// fontOf returns what a font's dictionary tells, nil when the font does
// not call for reading characters one by one. A font's ToUnicode map is
// checked against its program once a document (brokenmap.go).
func (d *docDicts) fontOf(f pdfobj.Font) *dictFont {
	if names, ok := fontNames(f); ok {
		return &dictFont{names: names, cid: f.Subtype == "Type0"}
	}
	if !f.ToUnicode || !identityTrueType(f) && !simpleFont(f) {
		return nil
	}
	if r, ok := d.checked[f.Ref]; ok && f.Ref != (pdfobj.Ref{}) {
		return r
	}
	r := d.checkMap(f)
	if f.Ref != (pdfobj.Ref{}) {
		if d.checked == nil {
			d.checked = map[pdfobj.Ref]*dictFont{}
		}
		d.checked[f.Ref] = r
	}
	return r
}

// identityTrueType reports whether a font is a CID TrueType font whose
// codes are its glyph indexes (Identity-H or -V, /CIDToGIDMap /Identity)
// with its program embedded.
func identityTrueType(f pdfobj.Font) bool {
	return f.Subtype == "Type0" && f.CIDSubtype == "CIDFontType2" && f.CIDToGIDMap == "Identity" &&
		f.FontFile == "FontFile2" && (f.Encoding == "Identity-H" || f.Encoding == "Identity-V")
}

// engineFontName is the name the engine gives a font: its /BaseFont less
// the subset tag, none for a Type 3 font.
func engineFontName(f pdfobj.Font) string {
	if f.Subtype == "Type3" {
		return ""
	}
	return stripSubsetTag(f.BaseFont)
}

// stripSubsetTag cuts a subset tag (six capitals and +) off a font name;
// the engine leaves it out of simple fonts' names and keeps it in Type 0
// fonts', so both sides are compared without it.
func stripSubsetTag(name string) string {
	if len(name) > 7 && name[6] == '+' && strings.Trim(name[:6], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		return name[7:]
	}
	return name
}

// fontNames returns the text of the codes a font's /Differences names,
// and whether the font calls for reading its characters one by one (see
// the comment above).
func fontNames(f pdfobj.Font) (map[uint32]string, bool) {
	if f.ToUnicode {
		return nil, false
	}
	names := map[uint32]string{}
	unread := false
	// A font whose names are all numbers (a65, G4C) reads them as
	// their characters, as pdftotext does (fontprog's numeric.go).
	numeric, hex := fontprog.NumericNames(f.Differences, f.DifferencesStart)
	for code, name := range f.Differences {
		t := fontprog.GlyphNameText(name)
		if t == "" && numeric {
			t = fontprog.NumericNameText(name, hex)
		}
		if t == "" || fontprog.NoText(t) {
			continue
		}
		names[uint32(code)] = t
		if !engineReads(name) {
			unread = true
		}
	}
	switch f.Subtype {
	case "Type3":
		return names, len(names) > 0
	case "Type1", "MMType1":
		return names, unread
	case "TrueType":
		embedded := f.FontFile == "FontFile2"
		return names, unread || embedded && (f.Flags&pdfobj.Symbolic != 0 || !f.HasEncoding)
	case "Type0":
		// Glyph indexes without a map: the program's names and
		// Unicode cmap tell them.
		return names, identityTrueType(f)
	}
	return nil, false
}

// engineReads reports whether the engine maps a glyph name of a simple
// font's /Differences itself: one component (no underscore) that the
// Adobe Glyph List, uniXXXX or uXXXX reads, as FreeType's names do.
func engineReads(name string) bool {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if strings.Contains(name, "_") {
		return false
	}
	if h, ok := strings.CutPrefix(name, "uni"); ok && len(h) > 4 {
		return false
	}
	return fontprog.ComponentText(name) != ""
}
