package fontprog

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

// Glyph names to text (issue 33), as the Adobe Glyph List specification
// ("Unicode values from glyph names", agl-aglfn) and pdftotext read them.
//
// A name is cut at its first period (`a.sc`, `one.oldstyle` are styles of
// `a`, `one`), split at underscores into components (`f_f_i` is the
// ligature of f, f, i), and each component is, in this order:
//   - a name of the Adobe Glyph List (glyphdata/glyphlist.txt, 4,281 names:
//     `A`, `Zhecyrillic`, `afii10070`, `fi`), the ligatures ff fi fl ffi ffl
//     st written as their letters, as pdftotext writes them;
//   - `uniXXXX…`: groups of four upper-case hex digits, each a BMP
//     character other than a surrogate;
//   - `uXXXX` to `uXXXXXX`: four to six upper-case hex digits, one
//     character up to U+10FFFF, no surrogate.
//
// Any other component (`g12`, `cid0123`, `glyph7`, `.notdef`, a private
// name) has no text, and then the name has none: a glyph whose text is
// unknown is dropped, never guessed.

//go:embed glyphdata/glyphlist.txt
var glyphListText string

var (
	glyphListOnce sync.Once
	glyphList     map[string]string
)

// adobeGlyphList returns the Adobe Glyph List as name → text, parsed on
// first use (only PDFs with fonts without a Unicode map need it).
func adobeGlyphList() map[string]string {
	glyphListOnce.Do(func() {
		glyphList = make(map[string]string, 4400)
		for line := range strings.SplitSeq(glyphListText, "\n") {
			name, codes, ok := strings.Cut(strings.TrimSpace(line), ";")
			if !ok || strings.HasPrefix(name, "#") {
				continue
			}
			var b strings.Builder
			for h := range strings.FieldsSeq(codes) {
				v, err := strconv.ParseUint(h, 16, 32)
				if err != nil {
					b.Reset()
					break
				}
				b.WriteRune(rune(v))
			}
			if b.Len() > 0 {
				glyphList[name] = b.String()
			}
		}
		// Latin ligatures as their letters (pdftotext's reading; the
		// list gives their presentation forms U+FB00–FB06).
		for name, letters := range map[string]string{"ff": "ff", "fi": "fi", "fl": "fl", "ffi": "ffi", "ffl": "ffl", "st": "st"} {
			glyphList[name] = letters
		}
	})
	return glyphList
}

// GlyphNameText returns the text of a glyph name, or "" when it has none.
func GlyphNameText(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if name == "" || len(name) > 128 {
		return ""
	}
	var b strings.Builder
	for comp := range strings.SplitSeq(name, "_") {
		t := ComponentText(comp)
		if t == "" {
			return ""
		}
		b.WriteString(t)
	}
	return b.String()
}

// ComponentText returns the text of one component of a glyph name (no
// underscore, no suffix), "" when it has none.
func ComponentText(c string) string {
	if t, ok := adobeGlyphList()[c]; ok {
		return t
	}
	if h, ok := strings.CutPrefix(c, "uni"); ok && len(h) >= 4 && len(h)%4 == 0 {
		var b strings.Builder
		for i := 0; i < len(h); i += 4 {
			r, ok := upperHex(h[i : i+4])
			if !ok || r >= 0xd800 && r < 0xe000 {
				return ""
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	if h, ok := strings.CutPrefix(c, "u"); ok && len(h) >= 4 && len(h) <= 6 {
		r, ok := upperHex(h)
		if !ok || r >= 0xd800 && r < 0xe000 || r > 0x10ffff {
			return ""
		}
		return string(r)
	}
	return ""
}

// upperHex parses upper-case hex digits only, as the specification asks
// (`uni00e9` is no name of é).
func upperHex(h string) (rune, bool) {
	var r rune
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
