package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Number formats a numeric cell value.
func (f *Format) Number(v float64, date1904 bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "#NUM!"
	}
	if f.General {
		return generalNumber(v)
	}
	s, signed := f.pick(v)
	if s == nil {
		return generalNumber(v)
	}
	if s.date {
		if out, ok := s.renderDate(v, date1904); ok {
			return out
		}
		return generalNumber(v)
	}
	if !s.numeric && s.text {
		// A text-only section applied to a number shows it as General.
		return generalNumber(v)
	}
	x := v
	neg := false
	if signed {
		neg = v < 0
	}
	x = math.Abs(x)
	out := s.renderNumber(x)
	if neg {
		out = "-" + out
	}
	if s.dbnum > 0 {
		out = DBNum(out, s.dbnum)
	}
	return out
}

// pick chooses the section for a number and whether a negative number
// gets a leading "-": a lone section and sections chosen by [conditions]
// show the sign, the negative section of "pos;neg" formats does not.
func (f *Format) pick(v float64) (*section, bool) {
	secs := f.sections
	if len(secs) == 4 {
		secs = secs[:3]
	} else if len(secs) > 1 {
		if l := secs[len(secs)-1]; l.text && !l.numeric && !l.date {
			secs = secs[:len(secs)-1]
		}
	}
	if f.hasCond {
		s1 := secs[0]
		if s1.condOp != "" {
			if s1.cond(v) {
				return s1, true
			}
			if len(secs) < 2 {
				return nil, true
			}
			s2 := secs[1]
			if s2.condOp == "" || s2.cond(v) {
				return s2, true
			}
			if len(secs) >= 3 {
				return secs[2], true
			}
			return nil, true
		}
	}
	switch {
	case len(secs) == 1:
		return secs[0], true
	case len(secs) == 2:
		if v >= 0 {
			return secs[0], false
		}
		return secs[1], false
	default:
		switch {
		case v > 0:
			return secs[0], false
		case v < 0:
			return secs[1], false
		}
		return secs[2], false
	}
}

func (s *section) cond(v float64) bool {
	switch s.condOp {
	case "<":
		return v < s.condVal
	case "<=":
		return v <= s.condVal
	case ">":
		return v > s.condVal
	case ">=":
		return v >= s.condVal
	case "=":
		return v == s.condVal
	case "<>":
		return v != s.condVal
	}
	return true
}

// renderNumber renders x ≥ 0 with a numeric (or literal-only) section.
func (s *section) renderNumber(x float64) string {
	for _, t := range s.toks {
		if t.kind == general {
			return s.renderGeneral(x)
		}
	}
	x *= math.Pow(100, float64(s.percent))
	x /= math.Pow(1000, float64(s.scale))
	for i, t := range s.toks {
		switch t.kind {
		case xlExp:
			return s.renderExp(x, i)
		case slash:
			return s.renderFraction(x, i)
		}
	}
	nFrac := 0
	seenPoint := false
	for _, t := range s.toks {
		if t.kind == xlPoint {
			seenPoint = true
		} else if t.kind == digit && seenPoint {
			nFrac++
		}
	}
	ip, fp := decimal(x, nFrac)
	var b strings.Builder
	s.writeMantissa(&b, s.toks, ip, fp)
	return b.String()
}

// renderGeneral renders a section holding General: the literals around the
// General number.
func (s *section) renderGeneral(x float64) string {
	var b strings.Builder
	for _, t := range s.toks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case general:
			b.WriteString(generalNumber(x))
		case percent:
			b.WriteByte('%')
		}
	}
	return b.String()
}

// writeMantissa writes the integer digits ip and fraction digits fp into
// the placeholders and literals of toks (which hold no exponent).
func (s *section) writeMantissa(b *strings.Builder, toks []tok, ip, fp string) {
	point := len(toks)
	for i, t := range toks {
		if t.kind == xlPoint {
			point = i
			break
		}
	}
	intToks := toks[:point]
	// Integer placeholders take the digits from the right; the leftmost
	// takes all that remain.
	slots := digitSlots(intToks)
	pieces := make([]string, len(intToks))
	k := len(ip)
	for j := len(slots) - 1; j >= 0; j-- {
		t := intToks[slots[j]]
		var p string
		if k > 0 {
			k--
			p = ip[k : k+1]
		} else {
			switch t.c {
			case '0':
				p = "0"
			case '?':
				p = " "
			}
		}
		if j == 0 && k > 0 {
			p = ip[:k] + p
			k = 0
		}
		pieces[slots[j]] = p
	}
	if s.thousands {
		count := 0
		for j := len(slots) - 1; j >= 0; j-- {
			p := pieces[slots[j]]
			var r []byte
			for q := len(p) - 1; q >= 0; q-- {
				if p[q] >= '0' && p[q] <= '9' {
					if count > 0 && count%3 == 0 {
						r = append(r, ',')
					}
					count++
				}
				r = append(r, p[q])
			}
			for a, z := 0, len(r)-1; a < z; a, z = a+1, z-1 {
				r[a], r[z] = r[z], r[a]
			}
			pieces[slots[j]] = string(r)
		}
	}
	writePlaced(b, intToks, pieces)
	if len(slots) == 0 && k > 0 && point < len(toks) {
		b.WriteString(ip[:k]) // ".00": the integer digits still show
	}
	if point == len(toks) {
		return
	}
	b.WriteByte('.')
	fracToks := toks[point+1:]
	fslots := digitSlots(fracToks)
	fpieces := make([]string, len(fracToks))
	for j, i := range fslots {
		if j < len(fp) {
			fpieces[i] = fp[j : j+1]
		}
	}
	for j := len(fslots) - 1; j >= 0; j-- {
		i := fslots[j]
		if fpieces[i] != "0" {
			break
		}
		c := fracToks[i].c
		if c == '0' {
			break
		}
		if c == '#' {
			fpieces[i] = ""
		} else {
			fpieces[i] = " "
		}
	}
	writePlaced(b, fracToks, fpieces)
}

// digitSlots returns the indexes of the digit placeholders of toks.
func digitSlots(toks []tok) []int {
	var slots []int
	for i, t := range toks {
		if t.kind == digit {
			slots = append(slots, i)
		}
	}
	return slots
}

// writePlaced writes toks with each digit placeholder toks[i] replaced
// by pieces[i], and literals, percent signs and decimal points as they
// are.
func writePlaced(b *strings.Builder, toks []tok, pieces []string) {
	for i, t := range toks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case digit:
			b.WriteString(pieces[i])
		case percent:
			b.WriteByte('%')
		case xlPoint:
			b.WriteByte('.')
		}
	}
}

// renderExp renders scientific notation; e is the index of the exponent
// token.
func (s *section) renderExp(x float64, e int) string {
	mant := s.toks[:e]
	nInt, nFrac, hash := 0, 0, false
	seenPoint := false
	for _, t := range mant {
		switch {
		case t.kind == xlPoint:
			seenPoint = true
		case t.kind == digit && seenPoint:
			nFrac++
		case t.kind == digit:
			nInt++
			hash = hash || t.c == '#'
		}
	}
	exp := 0
	var ip, fp string
	if x != 0 {
		e10 := exponent(x)
		for try := 0; try < 2; try++ {
			if hash && nInt > 1 {
				exp = int(math.Floor(float64(e10)/float64(nInt))) * nInt
			} else {
				exp = e10 - (max(nInt, 1) - 1)
			}
			ip, fp = decimal(x/math.Pow(10, float64(exp)), nFrac)
			limit := max(nInt, 1)
			if hash && nInt > 1 {
				limit = nInt
			}
			if len(ip) <= limit {
				break
			}
			e10++
		}
	} else {
		ip, fp = decimal(0, nFrac)
	}
	var b strings.Builder
	s.writeMantissa(&b, mant, ip, fp)
	b.WriteByte('E')
	switch {
	case exp < 0:
		b.WriteByte('-')
	case s.toks[e].c == '+':
		b.WriteByte('+')
	}
	minDigits := 0
	rest := s.toks[e+1:]
	for _, t := range rest {
		if t.kind == digit && t.c == '0' {
			minDigits++
		}
	}
	ds := pad(abs(exp), minDigits)
	written := false
	for _, t := range rest {
		switch t.kind {
		case digit:
			if !written {
				b.WriteString(ds)
				written = true
			}
		case xlLit:
			b.WriteString(t.s)
		case percent:
			b.WriteByte('%')
		}
	}
	if !written {
		b.WriteString(ds)
	}
	return b.String()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// renderFraction renders "# ?/?"-style fractions; sl is the slash index.
// Numerator and denominator are written without the space padding Excel
// uses to align fractions.
func (s *section) renderFraction(x float64, sl int) string {
	// Numerator: the placeholders right before the slash.
	ns := sl
	for ns > 0 && s.toks[ns-1].kind == digit {
		ns--
	}
	hasInt := digitBefore(s.toks[:ns])
	// Denominator: placeholders (variable) or literal digits (fixed).
	den, maxDen := 0, 0
	de := sl + 1
	var denDigits strings.Builder
	for de < len(s.toks) {
		t := s.toks[de]
		if t.kind == digit {
			denDigits.WriteByte(t.c)
		} else if t.kind == xlLit && allDigits(t.s) {
			denDigits.WriteString(t.s)
		} else {
			break
		}
		de++
	}
	ds := denDigits.String()
	if ds[0] >= '1' && ds[0] <= '9' && allDigits(ds) {
		den, _ = strconv.Atoi(ds)
	} else {
		maxDen = int(math.Pow(10, float64(min(len(ds), 4)))) - 1
	}
	whole := 0.0
	f := x
	if hasInt {
		whole = math.Floor(x)
		f = x - whole
	}
	var num int
	if den > 0 {
		num = int(math.Round(f * float64(den)))
	} else {
		num, den = bestFraction(f, maxDen)
	}
	if num == den && hasInt {
		whole++
		num = 0
	}
	var b strings.Builder
	if hasInt {
		ip, _ := decimal(whole, 0)
		s.writeMantissa(&b, s.toks[:ns], ip, "")
	} else {
		for _, t := range s.toks[:ns] {
			if t.kind == xlLit {
				b.WriteString(t.s)
			}
		}
	}
	if num == 0 && hasInt {
		out := strings.TrimRight(b.String(), " ")
		if out == "" {
			return "0"
		}
		return out
	}
	b.WriteString(strconv.Itoa(num))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(den))
	for _, t := range s.toks[de:] {
		if t.kind == xlLit {
			b.WriteString(t.s)
		}
	}
	return b.String()
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// bestFraction returns the fraction n/d closest to f (0 ≤ f < 1 or any
// f ≥ 0 without an integer part) with d ≤ maxDen, the smallest d on ties.
func bestFraction(f float64, maxDen int) (int, int) {
	if maxDen < 1 {
		maxDen = 1
	}
	bn, bd, best := int(math.Round(f)), 1, math.Abs(f-math.Round(f))
	for d := 2; d <= maxDen && best > 1e-12; d++ {
		n := math.Round(f * float64(d))
		if e := math.Abs(f - n/float64(d)); e < best-1e-15 {
			bn, bd, best = int(n), d, e
		}
	}
	return bn, bd
}

// Text applies the text section of a format to a text cell: the fourth
// section, or a last section holding @; without one the text shows as is.
func (f *Format) Text(v string) string {
	if f.General || len(f.sections) == 0 {
		return v
	}
	var s *section
	if len(f.sections) == 4 {
		s = f.sections[3]
	} else if l := f.sections[len(f.sections)-1]; l.text && !l.numeric && !l.date {
		s = l
	}
	if s == nil {
		return v
	}
	var b strings.Builder
	for _, t := range s.toks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case xlText:
			b.WriteString(v)
		}
	}
	return b.String()
}
