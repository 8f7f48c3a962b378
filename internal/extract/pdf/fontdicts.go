package pdf

import (
	"fmt"
	"io"
	"strings"

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
//     (f_f_i, T_h, uni30C630C8) – single names of the Adobe Glyph List,
//     uniXXXX and uXXXX the engine reads itself;
//   - is a TrueType font with its program embedded (FontFile2), flagged
//     symbolic or without /Encoding: its codes reach glyphs through its own
//     cmap, whose names or Unicode cmap the program tells (fontprog.go).
//
// Then an unmapped character takes the text of its code's name in
// /Differences, else its program's (and every character of a font with
// an unmapped one takes its program's text, as before). A dictionary
// matches the engine's font by its /BaseFont less the subset tag (ABCDEF+),
// a Type 3 font by having none (the engine gives none for it); fonts of
// one page that share a name and disagree on a code's text give none.
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
	pages  []pdfobj.Dict
	err    error // why the objects could not be read (for tests)
}

// pageDicts are the font dictionaries of a page that tell the text of
// codes: by the engine's base font name, each code's text ("" when fonts
// of that name disagree). nil: the page has no font that needs reading
// character by character.
type pageDicts map[string]map[uint32]string

// has reports whether a font of the name has a dictionary that names
// glyphs.
func (d pageDicts) has(name string) bool {
	_, ok := d[name]
	return ok
}

// text returns the text of a code of the font of the name.
func (d pageDicts) text(name string, code uint32) string {
	return d[name][code]
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
		names, ok := fontNames(f)
		if !ok {
			continue
		}
		if pd == nil {
			pd = pageDicts{}
		}
		key := engineFontName(f)
		m, seen := pd[key]
		if !seen {
			pd[key] = names
			continue
		}
		for code, t := range names {
			if old, ok := m[code]; ok && old != t {
				m[code] = ""
			} else if !ok {
				m[code] = t
			}
		}
	}
	return pd
}

// engineFontName is the name the engine gives a font: its /BaseFont less
// the subset tag, none for a Type 3 font.
func engineFontName(f pdfobj.Font) string {
	if f.Subtype == "Type3" {
		return ""
	}
	name := f.BaseFont
	if len(name) > 7 && name[6] == '+' && strings.Trim(name[:6], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		name = name[7:]
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
	for code, name := range f.Differences {
		t := glyphNameText(name)
		if t == "" || dropText(t) {
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
	return glyphComponentText(name) != ""
}
