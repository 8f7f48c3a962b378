package numfmt

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Excel number formats (reference/extraction.md §5.2): a format code is
// compiled once per style into sections of tokens and then applied to every
// cell of that style. The rendering follows what a Japanese Excel shows in
// a cell wide enough for the value:
//
//   - sections "positive;negative;zero;text", optional [conditions]
//     ([>=100]) choosing the section; a lone section shows negatives with
//     a leading "-", a second section shows their absolute value;
//   - digit placeholders 0 # ?, the decimal point, thousands separators,
//     scaling commas after the last placeholder, %, E+/E- exponents,
//     fractions (# ?/?, ?/8), literals ("…", \x, $ - + ( ) : space and any
//     other character), General inside a section and @ in the text section;
//   - _x pads with one space; *x (fill to the column width) adds nothing,
//     since no column width applies to the text export;
//   - colours are ignored; [$¥-411] writes its currency text, a locale 411
//     (ja-JP) switches AM/PM to 午前/午後 and mmm/ddd to Japanese names;
//     [$-F800] and [$-F400] are the Windows long date and time
//     (Japanese: yyyy"年"m"月"d"日", h:mm:ss);
//   - dates and times (date.go); [DBNum1]-[DBNum3] write the
//     digits as kanji or full-width digits (date.go).
//
// Numbers are first rounded to 15 significant digits, as Excel stores and
// shows them, and then rounded half away from zero to the decimals shown.

// tokKind is the kind of one number-format token.
type tokKind uint8

const (
	xlLit   tokKind = iota // literal text (s)
	digit                  // digit placeholder '0', '#' or '?' (c)
	xlPoint                // decimal point
	comma                  // ',' (thousands separator or scaling, decided at compile)
	percent                // '%': value ×100 and a literal %
	xlExp                  // E+ or E- (c is '+' or '-')
	slash                  // '/' of a fraction
	xlText                 // '@'
	general                // General
	date                   // date/time code (s: lower-case code such as "yyyy", "mm", "[h]", "am/pm")
	subSec                 // fractional seconds after ss (s: ".00")
)

type tok struct {
	kind tokKind
	c    byte
	s    string
}

// section is one compiled section of a format.
type section struct {
	toks    []tok
	condOp  string // "", "<", "<=", ">", ">=", "=", "<>"
	condVal float64
	date    bool // holds date/time codes
	text    bool // holds '@'
	numeric bool // holds digit placeholders or General
	ja      bool // locale 411 (ja-JP): Japanese AM/PM, month and weekday names
	dbnum   int  // [DBNum1..3]
	elapsed bool // [h], [m] or [s]
	ampm    bool // AM/PM or A/P present (12-hour clock)
	subSec  int  // digits of fractional seconds shown
	sysEnd  int  // [$-F800]/[$-F400]: the system format's tokens end here; later ones are ignored
	// Numeric layout, set by layout.
	thousands bool
	scale     int // number of scaling commas (÷1000 each)
	percent   int
}

// Format is a compiled number format.
type Format struct {
	code     string
	sections []*section
	General  bool // the whole format is General
	hasCond  bool
}

// Compile compiles a format code. It never fails: anything it does not
// know is literal text.
func Compile(code string) *Format {
	f := &Format{code: code}
	if strings.EqualFold(strings.TrimSpace(code), "general") || code == "" {
		f.General = true
		return f
	}
	f.sections = tokenize(code)
	if len(f.sections) > 4 {
		f.sections = f.sections[:4]
	}
	for _, s := range f.sections {
		layout(s)
		if s.condOp != "" {
			f.hasCond = true
		}
	}
	if len(f.sections) == 1 && len(f.sections[0].toks) == 1 && f.sections[0].toks[0].kind == general {
		f.General = true
	}
	return f
}

// tokenize splits a format code into its sections (at unquoted ";") and
// each section into tokens: literals, digit placeholders, punctuation,
// date and time codes, brackets.
func tokenize(code string) []*section {
	var sections []*section
	sec := &section{}
	i := 0
	lit := func(s string) { sec.toks = append(sec.toks, tok{kind: xlLit, s: s}) }
	for i < len(code) {
		c := code[i]
		switch {
		case c == ';':
			sections = append(sections, sec)
			sec = &section{}
			i++
		case c == '"':
			j := strings.IndexByte(code[i+1:], '"')
			if j < 0 {
				lit(code[i+1:])
				i = len(code)
			} else {
				lit(code[i+1 : i+1+j])
				i += j + 2
			}
		case c == '\\':
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				lit(code[i+1 : i+1+n])
				i += 1 + n
			} else {
				i++
			}
		case c == '_' || c == '*':
			// _x is a space as wide as x (one space here), *x repeats x
			// to fill the cell (nothing here); x itself is not shown.
			if c == '_' {
				lit(" ")
			}
			i++
			if i < len(code) {
				_, n := utf8.DecodeRuneInString(code[i:])
				i += n
			}
		case c == '[':
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				lit(code[i:])
				i = len(code)
				break
			}
			bracket(sec, code[i+1:i+j], lit)
			i += j + 1
		case c == '0' || c == '#' || c == '?':
			sec.toks = append(sec.toks, tok{kind: digit, c: c})
			i++
		case c == '.':
			sec.toks = append(sec.toks, tok{kind: xlPoint})
			i++
		case c == ',':
			sec.toks = append(sec.toks, tok{kind: comma})
			i++
		case c == '%':
			sec.toks = append(sec.toks, tok{kind: percent})
			i++
		case c == '@':
			sec.toks = append(sec.toks, tok{kind: xlText})
			i++
		case c == '/':
			sec.toks = append(sec.toks, tok{kind: slash})
			i++
		case (c == 'E' || c == 'e') && i+1 < len(code) && (code[i+1] == '+' || code[i+1] == '-'):
			sec.toks = append(sec.toks, tok{kind: xlExp, c: code[i+1]})
			i += 2
		case (c == 'G' || c == 'g') && len(code)-i >= 7 && strings.EqualFold(code[i:i+7], "general"):
			sec.toks = append(sec.toks, tok{kind: general})
			i += 7
		case (c == 'A' || c == 'a') && len(code)-i >= 5 && strings.EqualFold(code[i:i+5], "am/pm"):
			sec.toks = append(sec.toks, tok{kind: date, s: "am/pm"})
			if c == 'a' {
				sec.toks[len(sec.toks)-1].c = 'a'
			}
			i += 5
		case (c == 'A' || c == 'a') && len(code)-i >= 3 && strings.EqualFold(code[i:i+3], "a/p"):
			sec.toks = append(sec.toks, tok{kind: date, s: "a/p", c: c})
			i += 3
		case strings.IndexByte("yYmMdDhHsSgGeEbB", c) >= 0 || ((c == 'a' || c == 'A') && run(code[i:], 'a') >= 3):
			n := run(code[i:], c|0x20)
			sec.toks = append(sec.toks, tok{kind: date, s: strings.Repeat(string(c|0x20), n)})
			i += n
		default:
			_, n := utf8.DecodeRuneInString(code[i:])
			lit(code[i : i+n])
			i += n
		}
	}
	return append(sections, sec)
}

// run counts the leading bytes of s equal to c ignoring ASCII case.
func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n]|0x20 == c {
		n++
	}
	return n
}

// bracket handles one [...] group of a section.
func bracket(sec *section, b string, lit func(string)) {
	lb := strings.ToLower(b)
	switch {
	case b == "":
	case b[0] == '<' || b[0] == '>' || b[0] == '=':
		op := b[:1]
		rest := b[1:]
		if len(rest) > 0 && (rest[0] == '=' || rest[0] == '>') && op != "=" {
			op += rest[:1]
			rest = rest[1:]
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64); err == nil {
			sec.condOp, sec.condVal = op, v
		}
	case b[0] == '$':
		cur, loc, _ := strings.Cut(b[1:], "-")
		lit(cur)
		loc = strings.ToLower(loc)
		switch {
		case strings.HasSuffix(loc, "411") || strings.HasPrefix(loc, "ja"):
			sec.ja = true
		case loc == "f800":
			sec.ja = true
			sec.toks = append(sec.toks, tok{kind: date, s: "yyyy"}, tok{kind: xlLit, s: "年"},
				tok{kind: date, s: "m"}, tok{kind: xlLit, s: "月"},
				tok{kind: date, s: "d"}, tok{kind: xlLit, s: "日"})
			sec.sysEnd = len(sec.toks)
		case loc == "f400":
			sec.toks = append(sec.toks, tok{kind: date, s: "h"}, tok{kind: xlLit, s: ":"},
				tok{kind: date, s: "mm"}, tok{kind: xlLit, s: ":"}, tok{kind: date, s: "ss"})
			sec.sysEnd = len(sec.toks)
		}
	case run(lb, 'h') == len(lb) || run(lb, 'm') == len(lb) || run(lb, 's') == len(lb):
		sec.toks = append(sec.toks, tok{kind: date, s: "[" + lb + "]"})
	case strings.HasPrefix(lb, "dbnum") && len(lb) == 6 && lb[5] >= '1' && lb[5] <= '4':
		sec.dbnum = int(lb[5] - '0')
	default:
		// Colours ([Red], [Color10]) and anything unknown show nothing.
	}
}
