package pdf

import (
	"crypto/sha256"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract/pdf/fontprog"
	"github.com/fumibako/fumibako/internal/extract/pdf/pdfobj"
)

// Broken ToUnicode maps (issue 33). Some writers give a font a ToUnicode
// map that is off: Hangul for Russian or Latin (each character plus a
// constant), Greek for Latin. The engine trusts the map, and so does
// pdftotext. A font whose program tells its glyphs' text itself is checked
// against it once a document (docDicts.fontOf):
//
//   - a CID TrueType font (Identity): a code is its glyph index, whose text
//     is the program's Unicode cmap's;
//   - a simple font (TrueType, Type1, MMType1) with its program embedded:
//     a code's text is its /Differences name's, else the program's own
//     encoding's glyph name (a Type 1 or CFF built-in encoding when the
//     dictionary names no base encoding; a TrueType (3,0) or (1,0) cmap to
//     the glyph's 'post' name or Unicode cmap when the font is symbolic or
//     has no /Encoding). A simple font is checked only when its map gives
//     a letter outside the Latin script (the cost of reading the program
//     is paid for the suspect maps only; a map of Latin letters the
//     program says are Cyrillic is not found).
//
// The map is broken when both hold:
//
//   - it contradicts the font: of the codes both tell a one-character text
//     for, at least 90 % (and 3 or more) differ;
//   - its text is implausible: of the differing codes whose font text is a
//     letter (3 or more), at least 90 % get a letter of another script
//     (Hangul or Greek where the glyph names say Latin). Han, hiragana and
//     katakana count as one script, so a map that gives Japanese text the
//     glyph names do not (a deliberate map, a variant kanji) stays.
//
// Then each character the map gives on the page becomes its glyph's own
// text, where the glyphs that share the character agree; a code whose
// text is several characters (a ligature) gives each of them the glyph's
// character at the same place when both have as many.

// minWrongCodes is how many of a map's codes must disagree with the font,
// and how many letters must be of another script, before the map counts as
// broken.
const minWrongCodes = 3

// simpleFont reports whether a font is a simple font that may embed a
// program whose names tell its glyphs.
func simpleFont(f pdfobj.Font) bool {
	return f.Subtype == "TrueType" || f.Subtype == "Type1" || f.Subtype == "MMType1"
}

// checkMap checks a font's ToUnicode map against its program: the
// remapping of a broken map, nil when the map is sound or either cannot be
// read.
func (d *docDicts) checkMap(f pdfobj.Font) *dictFont {
	tuData, err := d.file.ToUnicodeData(f)
	if err != nil {
		return nil
	}
	tu := parseToUnicode(tuData)
	cid := identityTrueType(f)
	if !cid {
		if !nonLatinMap(tu) {
			return nil
		}
		f = d.file.Described(f)
		if f.FontFile == "" {
			return nil
		}
	}
	prog, err := d.file.ProgramData(f)
	if err != nil {
		return nil
	}
	h := sha256.New()
	h.Write(prog)
	h.Write([]byte{0})
	h.Write(tuData)
	var key [32]byte
	h.Sum(key[:0])
	if r, ok := d.remaps[key]; ok {
		return r
	}
	var r *dictFont
	p := fontprog.Parse(prog)
	own := simpleFontText(f, p)
	if cid {
		own = cidFontText(p)
	}
	if p != nil {
		if remap := brokenMap(tu, own); remap != nil {
			r = &dictFont{cid: cid, remap: remap}
		}
	}
	if d.remaps == nil {
		d.remaps = map[[32]byte]*dictFont{}
	}
	d.remaps[key] = r
	return r
}

// nonLatinMap reports whether a map gives a letter of a script other than
// Latin.
func nonLatinMap(tu map[uint32]string) bool {
	for _, t := range tu {
		for _, r := range t {
			if s := scriptOf(r); s != scriptNone && s != scriptLatin {
				return true
			}
		}
	}
	return false
}

// cidFontText returns the text a CID TrueType font's program gives a code
// (its glyph index): the Unicode cmap's character for the glyph.
func cidFontText(p *fontprog.Program) func(uint32) string {
	return func(code uint32) string {
		if p == nil || code > 0xffff {
			return ""
		}
		if r, ok := p.Unicode(int(code)); ok {
			return string(r)
		}
		return ""
	}
}

// simpleFontText returns the text a simple font itself gives a code (see
// the comment above); "" where it does not tell.
func simpleFontText(f pdfobj.Font, p *fontprog.Program) func(uint32) string {
	return func(code uint32) string {
		if name, ok := f.Differences[int(code)]; ok {
			if t := fontprog.GlyphNameText(name); !fontprog.NoText(t) {
				return t
			}
			return ""
		}
		if p == nil || code > 0xff {
			return ""
		}
		switch {
		case p.Builtin():
			if f.Encoding != "" {
				return "" // a named base encoding, not the program's
			}
			return p.Text(code)
		case f.Subtype == "TrueType" && (f.Flags&pdfobj.Symbolic != 0 || !f.HasEncoding):
			if g := p.CmapGlyph(code); g > 0 {
				if t := p.GlyphText(g); !fontprog.NoText(t) {
					return t
				}
			}
		}
		return ""
	}
}

// brokenMap tells whether a ToUnicode map (code → text) is broken against
// what the font itself gives each code (own; see the comment above), and
// then returns, for each character the map gives, the text of its glyph;
// nil when the map stands.
func brokenMap(tu map[uint32]string, own func(uint32) string) map[rune]string {
	known, wrong, letters, foreign := 0, 0, 0, 0
	remap := map[rune]string{}
	ambiguous := map[rune]bool{}
	add := func(r rune, t string) {
		if old, ok := remap[r]; ok && old != t {
			ambiguous[r] = true
		}
		remap[r] = t
	}
	for code, t := range tu {
		o := own(code)
		if o == "" || o == t {
			if o != "" && len([]rune(t)) == 1 {
				known++
			}
			continue
		}
		rs, ors := []rune(t), []rune(o)
		if len(rs) != 1 {
			// A ligature's characters, one for one.
			if len(rs) == len(ors) {
				for i, r := range rs {
					add(r, string(ors[i]))
				}
			}
			continue
		}
		known++
		wrong++
		add(rs[0], o)
		if len(ors) != 1 {
			continue
		}
		if s := scriptOf(ors[0]); s != scriptNone {
			letters++
			if m := scriptOf(rs[0]); m != scriptNone && m != s {
				foreign++
			}
		}
	}
	// A font whose map disagrees on a few glyphs (ligatures, a glyph
	// the cmap gives two characters) has no broken map; nor one whose
	// text is of the script the glyphs are (a deliberate map).
	if wrong < minWrongCodes || wrong*10 < known*9 {
		return nil
	}
	if letters < minWrongCodes || foreign*10 < letters*9 {
		return nil
	}
	for r := range ambiguous {
		delete(remap, r)
	}
	return remap
}

// script is a letter's writing system as the broken map check tells them
// apart.
type script int

const (
	scriptNone  script = iota // no letter, or a letter of the Common script (ー)
	scriptLatin               // Latin
	scriptGreek
	scriptCyrillic
	scriptHangul
	scriptCJK // Han, hiragana, katakana, bopomofo: one, as Japanese mixes them
	scriptArabic
	scriptHebrew
	scriptOther // any other script's letters
)

// scripts are the scripts told apart, in the order they are tried.
var scripts = []struct {
	table *unicode.RangeTable
	s     script
}{
	{unicode.Latin, scriptLatin}, {unicode.Greek, scriptGreek}, {unicode.Cyrillic, scriptCyrillic},
	{unicode.Hangul, scriptHangul}, {unicode.Han, scriptCJK}, {unicode.Hiragana, scriptCJK},
	{unicode.Katakana, scriptCJK}, {unicode.Bopomofo, scriptCJK}, {unicode.Arabic, scriptArabic},
	{unicode.Hebrew, scriptHebrew},
}

// scriptOf returns the script of a letter (scriptNone for anything else).
func scriptOf(r rune) script {
	if !unicode.IsLetter(r) || unicode.Is(unicode.Common, r) {
		return scriptNone
	}
	for _, s := range scripts {
		if unicode.Is(s.table, r) {
			return s.s
		}
	}
	return scriptOther
}
