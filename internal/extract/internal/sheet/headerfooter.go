package sheet

import (
	"io"
	"strings"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// HeaderFooter holds a sheet's headerFooter element (worksheets and
// chart sheets alike; prefixed forms such as x:headerFooter match by local
// name).
type HeaderFooter struct {
	DifferentFirst, DifferentOddEven bool
	Parts                            map[string]string // oddHeader, firstFooter, … → raw text
}

// Read reads the headerFooter element just started.
func (h *HeaderFooter) Read(d *xmlscan.Scanner) error {
	h.DifferentFirst = On(string(d.Attr("differentFirst")))
	h.DifferentOddEven = On(string(d.Attr("differentOddEven")))
	h.Parts = map[string]string{}
	if d.PendingEnd {
		return d.Skip()
	}
	stop := d.Depth() - 1
	for d.Depth() > stop {
		if err := d.Next(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		if d.Kind != xmlscan.Start {
			continue
		}
		name := string(d.Name)
		text, err := d.ElementText()
		if err != nil {
			return err
		}
		h.Parts[name] += text
	}
	return nil
}

func On(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || strings.EqualFold(v, "true")
}

// Lines returns the [ヘッダー・フッター] lines (reference/extraction.md
// §5.6): headers, then footers; within each the first page (only when
// differentFirst is on), odd pages, even pages (only when differentOddEven
// is on). Each section (&L, &C, &R) is split at newlines with codes
// removed; lines are trimmed, TABs become spaces, empty lines and repeats
// are dropped, and every line is in cell form.
func (h *HeaderFooter) Lines() []string {
	if len(h.Parts) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, kind := range []string{"Header", "Footer"} {
		for _, page := range []string{"first", "odd", "even"} {
			if page == "first" && !h.DifferentFirst || page == "even" && !h.DifferentOddEven {
				continue
			}
			raw, ok := h.Parts[page+kind]
			if !ok {
				continue
			}
			for _, sec := range headerFooterSections(Unescape(raw)) {
				for _, l := range strings.FieldsFunc(sec, func(r rune) bool { return r == '\n' || r == '\r' }) {
					l = strings.TrimFunc(strings.ReplaceAll(l, "\t", " "), unicode.IsSpace)
					if l == "" || seen[l] {
						continue
					}
					seen[l] = true
					out = append(out, ObjectCellText(l))
				}
			}
		}
	}
	return out
}

// headerFooterSections splits a header or footer string into its left,
// centre and right sections with the codes removed: &L &C &R switch
// section (text before any code is centre), && is "&"; removed are &P with
// an optional +/- and digits, &N &D &T &Z &F &A &G, &"font,style", & with
// one to three digits (font size), &K with six hex digits or with two
// digits, +/- and three digits (colour), and &B &I &U &E &S &X &Y &O &H.
// Any other & and its character stay.
func headerFooterSections(s string) [3]string {
	var sec [3]strings.Builder
	cur := 1
	for i := 0; i < len(s); {
		c := s[i]
		if c != '&' || i+1 >= len(s) {
			sec[cur].WriteByte(c)
			i++
			continue
		}
		n := s[i+1]
		switch {
		case n == 'L':
			cur = 0
			i += 2
		case n == 'C':
			cur = 1
			i += 2
		case n == 'R':
			cur = 2
			i += 2
		case n == '&':
			sec[cur].WriteByte('&')
			i += 2
		case n == 'P':
			i += 2
			if i < len(s) && (s[i] == '+' || s[i] == '-') && i+1 < len(s) && isDigit(s[i+1]) {
				i++
			}
			for i < len(s) && isDigit(s[i]) {
				i++
			}
		case strings.IndexByte("NDTZFAGBIUESXYOH", n) >= 0:
			i += 2
		case n == '"':
			j := strings.IndexByte(s[i+2:], '"')
			if j < 0 {
				i = len(s)
			} else {
				i += 2 + j + 1
			}
		case isDigit(n):
			i += 2
			for k := 0; k < 2 && i < len(s) && isDigit(s[i]); k++ {
				i++
			}
		case n == 'K' && colourCode(s[i+2:]) > 0:
			i += 2 + colourCode(s[i+2:])
		default:
			sec[cur].WriteByte('&')
			i++
		}
	}
	return [3]string{sec[0].String(), sec[1].String(), sec[2].String()}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// colourCode returns the length of a colour after &K: six hex digits
// (RRGGBB) or a theme colour (two digits, + or -, three digits); 0 if
// neither.
func colourCode(s string) int {
	if len(s) >= 6 {
		ok := true
		for i := 0; i < 6; i++ {
			ok = ok && ooxml.IsHex(s[i])
		}
		if ok {
			return 6
		}
	}
	if len(s) >= 6 && isDigit(s[0]) && isDigit(s[1]) && (s[2] == '+' || s[2] == '-') &&
		isDigit(s[3]) && isDigit(s[4]) && isDigit(s[5]) {
		return 6
	}
	return 0
}
