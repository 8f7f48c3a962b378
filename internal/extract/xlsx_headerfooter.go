package extract

import (
	"io"
	"strings"
	"unicode"
)

// xlHeaderFooter holds a sheet's headerFooter element (worksheets and
// chart sheets alike; prefixed forms such as x:headerFooter match by local
// name).
type xlHeaderFooter struct {
	differentFirst, differentOddEven bool
	parts                            map[string]string // oddHeader, firstFooter, … → raw text
}

// read reads the headerFooter element just started.
func (h *xlHeaderFooter) read(d *xlScanner) error {
	h.differentFirst = xlOn(string(d.attr("differentFirst")))
	h.differentOddEven = xlOn(string(d.attr("differentOddEven")))
	h.parts = map[string]string{}
	if d.pendingEnd {
		return d.skip()
	}
	stop := d.Depth() - 1
	for d.Depth() > stop {
		if err := d.next(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		if d.kind != xlScanStart {
			continue
		}
		name := string(d.name)
		text, err := d.elementText()
		if err != nil {
			return err
		}
		h.parts[name] += text
	}
	return nil
}

func xlOn(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || strings.EqualFold(v, "true")
}

// lines returns the [ヘッダー・フッター] lines (reference/extraction.md
// §5.6): headers, then footers; within each the first page (only when
// differentFirst is on), odd pages, even pages (only when differentOddEven
// is on). Each section (&L, &C, &R) is split at newlines with codes
// removed; lines are trimmed, TABs become spaces, empty lines and repeats
// are dropped, and every line is in cell form.
func (h *xlHeaderFooter) lines() []string {
	if len(h.parts) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, kind := range []string{"Header", "Footer"} {
		for _, page := range []string{"first", "odd", "even"} {
			if page == "first" && !h.differentFirst || page == "even" && !h.differentOddEven {
				continue
			}
			raw, ok := h.parts[page+kind]
			if !ok {
				continue
			}
			for _, sec := range xlHeaderFooterSections(xlUnescape(raw)) {
				for _, l := range strings.FieldsFunc(sec, func(r rune) bool { return r == '\n' || r == '\r' }) {
					l = strings.TrimFunc(strings.ReplaceAll(l, "\t", " "), unicode.IsSpace)
					if l == "" || seen[l] {
						continue
					}
					seen[l] = true
					out = append(out, xlObjectCellText(l))
				}
			}
		}
	}
	return out
}

// xlHeaderFooterSections splits a header or footer string into its left,
// centre and right sections with the codes removed: &L &C &R switch
// section (text before any code is centre), && is "&"; removed are &P with
// an optional +/- and digits, &N &D &T &Z &F &A &G, &"font,style", & with
// one to three digits (font size), &K with six hex digits or with two
// digits, +/- and three digits (colour), and &B &I &U &E &S &X &Y &O &H.
// Any other & and its character stay.
func xlHeaderFooterSections(s string) [3]string {
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
			if i < len(s) && (s[i] == '+' || s[i] == '-') && i+1 < len(s) && xlIsDigit(s[i+1]) {
				i++
			}
			for i < len(s) && xlIsDigit(s[i]) {
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
		case xlIsDigit(n):
			i += 2
			for k := 0; k < 2 && i < len(s) && xlIsDigit(s[i]); k++ {
				i++
			}
		case n == 'K' && xlColourCode(s[i+2:]) > 0:
			i += 2 + xlColourCode(s[i+2:])
		default:
			sec[cur].WriteByte('&')
			i++
		}
	}
	return [3]string{sec[0].String(), sec[1].String(), sec[2].String()}
}

func xlIsDigit(c byte) bool { return '0' <= c && c <= '9' }

// xlColourCode returns the length of a colour after &K: six hex digits
// (RRGGBB) or a theme colour (two digits, + or -, three digits); 0 if
// neither.
func xlColourCode(s string) int {
	if len(s) >= 6 {
		ok := true
		for i := 0; i < 6; i++ {
			ok = ok && isHex(s[i])
		}
		if ok {
			return 6
		}
	}
	if len(s) >= 6 && xlIsDigit(s[0]) && xlIsDigit(s[1]) && (s[2] == '+' || s[2] == '-') &&
		xlIsDigit(s[3]) && xlIsDigit(s[4]) && xlIsDigit(s[5]) {
		return 6
	}
	return 0
}
