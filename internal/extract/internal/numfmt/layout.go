package numfmt

import "strings"

// layout classifies a compiled section: date or numeric, the roles of
// commas, fractional seconds, and minutes versus months.
func layout(s *section) {
	if s.sysEnd > 0 {
		s.toks = s.toks[:s.sysEnd]
	}
	for _, t := range s.toks {
		switch t.kind {
		case date:
			s.date = true
		case xlText:
			s.text = true
		case digit, general:
			s.numeric = true
		}
	}
	if s.date {
		layoutDate(s)
		return
	}
	layoutNumber(s)
}

// layoutDate turns ".0" after seconds into fractional seconds, other
// number tokens into literals, and "m"/"mm" next to hours or seconds into
// minutes ("n"/"nn").
func layoutDate(s *section) {
	s.numeric = false
	var out []tok
	for i := 0; i < len(s.toks); i++ {
		t := s.toks[i]
		switch t.kind {
		case xlPoint:
			n := 0
			for i+1+n < len(s.toks) && s.toks[i+1+n].kind == digit && s.toks[i+1+n].c == '0' {
				n++
			}
			if n > 0 {
				out = append(out, tok{kind: subSec, s: "." + strings.Repeat("0", n)})
				s.subSec = max(s.subSec, min(n, 3))
				i += n
				continue
			}
			out = append(out, tok{kind: xlLit, s: "."})
		case digit:
			out = append(out, tok{kind: xlLit, s: strings.TrimSpace(string(t.c))})
		case comma:
			out = append(out, tok{kind: xlLit, s: ","})
		case percent:
			out = append(out, tok{kind: xlLit, s: "%"})
		case slash:
			out = append(out, tok{kind: xlLit, s: "/"})
		case xlExp:
			out = append(out, tok{kind: xlLit, s: "E" + string(t.c)})
		case xlText, general:
		default:
			out = append(out, t)
		}
	}
	for i, t := range out {
		if t.kind != date {
			continue
		}
		switch t.s {
		case "am/pm", "a/p":
			s.ampm = true
		case "[h]", "[hh]", "[m]", "[mm]", "[s]", "[ss]":
			s.elapsed = true
		}
		if t.s != "m" && t.s != "mm" {
			continue
		}
		minute := false
		for j := i - 1; j >= 0; j-- {
			if out[j].kind == date {
				minute = out[j].s[0] == 'h' || strings.HasPrefix(out[j].s, "[h")
				break
			}
		}
		for j := i + 1; !minute && j < len(out); j++ {
			if out[j].kind == date {
				minute = out[j].s[0] == 's' || strings.HasPrefix(out[j].s, "[s")
				break
			}
		}
		if minute {
			out[i].s = strings.Repeat("n", len(t.s))
		}
	}
	s.toks = out
}

// layoutNumber decides the commas: those right after the last digit
// placeholder scale by 1000 each, one between integer placeholders turns
// on thousands separators, any other is a literal. A slash without digit
// placeholders on both sides is a literal.
func layoutNumber(s *section) {
	last, point, exp := -1, -1, -1
	for i, t := range s.toks {
		switch t.kind {
		case digit:
			if exp < 0 {
				last = i
			}
		case xlPoint:
			if point < 0 && exp < 0 {
				point = i
			}
		case xlExp:
			if exp < 0 {
				exp = i
			}
		case percent:
			s.percent++
		}
	}
	var out []tok
	for i, t := range s.toks {
		switch t.kind {
		case comma:
			if last >= 0 && i > last && onlyCommas(s.toks[last+1:i]) {
				s.scale++
				continue
			}
			if digitBefore(s.toks[:i]) && i < last && (point < 0 || i < point) && (exp < 0 || i < exp) {
				s.thousands = true
				continue
			}
			out = append(out, tok{kind: xlLit, s: ","})
		case xlPoint:
			if i != point {
				out = append(out, tok{kind: xlLit, s: "."})
				continue
			}
			out = append(out, t)
		case slash:
			if point >= 0 || exp >= 0 || i == 0 || s.toks[i-1].kind != digit || !fractionDenominator(s.toks[i+1:]) {
				out = append(out, tok{kind: xlLit, s: "/"})
				continue
			}
			out = append(out, t)
		default:
			out = append(out, t)
		}
	}
	s.toks = out
}

func onlyCommas(ts []tok) bool {
	for _, t := range ts {
		if t.kind != comma {
			return false
		}
	}
	return true
}

func digitBefore(ts []tok) bool {
	for _, t := range ts {
		if t.kind == digit {
			return true
		}
	}
	return false
}

// fractionDenominator reports whether tokens after a slash start a
// denominator: placeholders or literal digits.
func fractionDenominator(ts []tok) bool {
	if len(ts) == 0 {
		return false
	}
	if ts[0].kind == digit {
		return true
	}
	return ts[0].kind == xlLit && ts[0].s != "" && ts[0].s[0] >= '1' && ts[0].s[0] <= '9'
}
