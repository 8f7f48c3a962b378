package rtf

import (
	"strings"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/extract/internal/codepage"
)

// Text of the document: characters, \'hh bytes and \u escapes decoded in
// the code page of the current font or of the document.

// char takes one text byte (literal, or \'hh and escaped symbols) into
// the current run. In a UTF-8 file literal bytes from 0x80 on are UTF-8;
// escaped bytes are always in the code page.
func (p *parser) char(b byte, literal bool) {
	p.g.first = false
	if p.skip > 0 {
		if !literal || b < 0x80 || b >= 0xc0 || !p.utf8 {
			p.skip--
		}
		return
	}
	if p.g.dest == destSkip || p.g.dest == destFonts {
		return
	}
	if literal && b >= 0x80 && p.utf8 {
		p.flushRaw()
		p.u8 = append(p.u8, b)
		return
	}
	p.flushU8()
	p.raw = append(p.raw, b)
}

// text writes decoded text (one fallback character's worth).
func (p *parser) text(s string) {
	p.g.first = false
	if p.skip > 0 {
		p.skip--
		return
	}
	p.flush()
	p.write(s)
}

func (p *parser) write(s string) {
	if p.g.dest == destSkip || p.g.dest == destFonts || s == "" {
		return
	}
	s = dropControls(s)
	sk := p.g.sink
	if sk.para.Len() == 0 {
		sk.paraPage = p.page
		if len(sk.cells) == 0 && len(sk.cellBuf) == 0 {
			sk.rowPage = p.page
		}
	}
	sk.para.WriteString(s)
}

// flush writes the pending text.
func (p *parser) flush() {
	p.flushRaw()
	p.flushU8()
}

func (p *parser) flushU8() {
	if len(p.u8) > 0 {
		s := string(p.u8)
		p.u8 = p.u8[:0]
		p.write(s)
	}
}

// flushRaw decodes the pending bytes with the code page in effect.
func (p *parser) flushRaw() {
	if len(p.raw) == 0 {
		return
	}
	enc, _ := codepage.Encoding(p.codePage())
	s := codepage.Decode(enc, p.raw)
	p.raw = p.raw[:0]
	p.write(s)
}

// codePage is the current font's code page, else the document's.
func (p *parser) codePage() int {
	f, ok := p.fonts[p.g.font]
	if !ok {
		return p.ansiCP
	}
	if f.cpg > 0 {
		return f.cpg
	}
	if cp, ok := codepage.ForCharset(f.charset); ok {
		return cp
	}
	return p.ansiCP
}

// unicode writes the character of \uN (N negative above 32767),
// joining a surrogate pair, and skips the N fallback bytes after it.
func (p *parser) unicode(param int) {
	p.flush()
	r := rune(param)
	if r < 0 {
		r += 65536
	}
	switch {
	case utf16.IsSurrogate(r) && r < 0xdc00:
		p.high = r
	case utf16.IsSurrogate(r):
		if p.high != 0 {
			p.write(string(utf16.DecodeRune(p.high, r)))
		}
		p.high = 0
	default:
		p.high = 0
		p.write(string(r))
	}
	p.skip = p.g.uc
}

// dropControls removes control characters from decoded text: a group the
// parser does not know as a destination (a numbering template's \'02,
// \'00) must not put them into the index (issue 33). Tabs and breaks are
// control words in RTF, never text bytes, so nothing of the text is lost.
func dropControls(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
