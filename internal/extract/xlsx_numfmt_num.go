package extract

import (
	"math"
	"strconv"
	"strings"
)

// xlLayout classifies a compiled section: date or numeric, the roles of
// commas, fractional seconds, and minutes versus months.
func xlLayout(s *xlSection) {
	if s.sysEnd > 0 {
		s.toks = s.toks[:s.sysEnd]
	}
	for _, t := range s.toks {
		switch t.kind {
		case xlDate:
			s.date = true
		case xlText:
			s.text = true
		case xlDigit, xlGeneral:
			s.numeric = true
		}
	}
	if s.date {
		xlLayoutDate(s)
		return
	}
	xlLayoutNumber(s)
}

// xlLayoutDate turns ".0" after seconds into fractional seconds, other
// number tokens into literals, and "m"/"mm" next to hours or seconds into
// minutes ("n"/"nn").
func xlLayoutDate(s *xlSection) {
	s.numeric = false
	var out []xlTok
	for i := 0; i < len(s.toks); i++ {
		t := s.toks[i]
		switch t.kind {
		case xlPoint:
			n := 0
			for i+1+n < len(s.toks) && s.toks[i+1+n].kind == xlDigit && s.toks[i+1+n].c == '0' {
				n++
			}
			if n > 0 {
				out = append(out, xlTok{kind: xlSubSec, s: "." + strings.Repeat("0", n)})
				s.subSec = max(s.subSec, min(n, 3))
				i += n
				continue
			}
			out = append(out, xlTok{kind: xlLit, s: "."})
		case xlDigit:
			out = append(out, xlTok{kind: xlLit, s: strings.TrimSpace(string(t.c))})
		case xlComma:
			out = append(out, xlTok{kind: xlLit, s: ","})
		case xlPercent:
			out = append(out, xlTok{kind: xlLit, s: "%"})
		case xlSlash:
			out = append(out, xlTok{kind: xlLit, s: "/"})
		case xlExp:
			out = append(out, xlTok{kind: xlLit, s: "E" + string(t.c)})
		case xlText, xlGeneral:
		default:
			out = append(out, t)
		}
	}
	for i, t := range out {
		if t.kind != xlDate {
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
			if out[j].kind == xlDate {
				minute = out[j].s[0] == 'h' || strings.HasPrefix(out[j].s, "[h")
				break
			}
		}
		for j := i + 1; !minute && j < len(out); j++ {
			if out[j].kind == xlDate {
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

// xlLayoutNumber decides the commas: those right after the last digit
// placeholder scale by 1000 each, one between integer placeholders turns
// on thousands separators, any other is a literal. A slash without digit
// placeholders on both sides is a literal.
func xlLayoutNumber(s *xlSection) {
	last, point, exp := -1, -1, -1
	for i, t := range s.toks {
		switch t.kind {
		case xlDigit:
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
		case xlPercent:
			s.percent++
		}
	}
	var out []xlTok
	for i, t := range s.toks {
		switch t.kind {
		case xlComma:
			if last >= 0 && i > last && xlOnlyCommas(s.toks[last+1:i]) {
				s.scale++
				continue
			}
			if xlDigitBefore(s.toks[:i]) && i < last && (point < 0 || i < point) && (exp < 0 || i < exp) {
				s.thousands = true
				continue
			}
			out = append(out, xlTok{kind: xlLit, s: ","})
		case xlPoint:
			if i != point {
				out = append(out, xlTok{kind: xlLit, s: "."})
				continue
			}
			out = append(out, t)
		case xlSlash:
			if point >= 0 || exp >= 0 || i == 0 || s.toks[i-1].kind != xlDigit || !xlFractionDenominator(s.toks[i+1:]) {
				out = append(out, xlTok{kind: xlLit, s: "/"})
				continue
			}
			out = append(out, t)
		default:
			out = append(out, t)
		}
	}
	s.toks = out
}

func xlOnlyCommas(ts []xlTok) bool {
	for _, t := range ts {
		if t.kind != xlComma {
			return false
		}
	}
	return true
}

func xlDigitBefore(ts []xlTok) bool {
	for _, t := range ts {
		if t.kind == xlDigit {
			return true
		}
	}
	return false
}

// xlFractionDenominator reports whether tokens after a slash start a
// denominator: placeholders or literal digits.
func xlFractionDenominator(ts []xlTok) bool {
	if len(ts) == 0 {
		return false
	}
	if ts[0].kind == xlDigit {
		return true
	}
	return ts[0].kind == xlLit && ts[0].s != "" && ts[0].s[0] >= '1' && ts[0].s[0] <= '9'
}

// number formats a numeric cell value.
func (f *xlFormat) number(v float64, date1904 bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "#NUM!"
	}
	if f.general {
		return xlGeneralNumber(v)
	}
	s, signed := f.pick(v)
	if s == nil {
		return xlGeneralNumber(v)
	}
	if s.date {
		if out, ok := s.renderDate(v, date1904); ok {
			return out
		}
		return xlGeneralNumber(v)
	}
	if !s.numeric && s.text {
		// A text-only section applied to a number shows it as General.
		return xlGeneralNumber(v)
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
		out = xlDBNum(out, s.dbnum)
	}
	return out
}

// pick chooses the section for a number and whether a negative number
// gets a leading "-": a lone section and sections chosen by [conditions]
// show the sign, the negative section of "pos;neg" formats does not.
func (f *xlFormat) pick(v float64) (*xlSection, bool) {
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

func (s *xlSection) cond(v float64) bool {
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
func (s *xlSection) renderNumber(x float64) string {
	for _, t := range s.toks {
		if t.kind == xlGeneral {
			return s.renderGeneral(x)
		}
	}
	x *= math.Pow(100, float64(s.percent))
	x /= math.Pow(1000, float64(s.scale))
	for i, t := range s.toks {
		switch t.kind {
		case xlExp:
			return s.renderExp(x, i)
		case xlSlash:
			return s.renderFraction(x, i)
		}
	}
	nFrac := 0
	seenPoint := false
	for _, t := range s.toks {
		if t.kind == xlPoint {
			seenPoint = true
		} else if t.kind == xlDigit && seenPoint {
			nFrac++
		}
	}
	ip, fp := xlDecimal(x, nFrac)
	var b strings.Builder
	s.writeMantissa(&b, s.toks, ip, fp)
	return b.String()
}

// renderGeneral renders a section holding General: the literals around the
// General number.
func (s *xlSection) renderGeneral(x float64) string {
	var b strings.Builder
	for _, t := range s.toks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case xlGeneral:
			b.WriteString(xlGeneralNumber(x))
		case xlPercent:
			b.WriteByte('%')
		}
	}
	return b.String()
}

// writeMantissa writes the integer digits ip and fraction digits fp into
// the placeholders and literals of toks (which hold no exponent).
func (s *xlSection) writeMantissa(b *strings.Builder, toks []xlTok, ip, fp string) {
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
	var slots []int
	for i, t := range intToks {
		if t.kind == xlDigit {
			slots = append(slots, i)
		}
	}
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
	for i, t := range intToks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case xlDigit:
			b.WriteString(pieces[i])
		case xlPercent:
			b.WriteByte('%')
		}
	}
	if len(slots) == 0 && k > 0 && point < len(toks) {
		b.WriteString(ip[:k]) // ".00": the integer digits still show
	}
	if point == len(toks) {
		return
	}
	b.WriteByte('.')
	fracToks := toks[point+1:]
	var fslots []int
	for i, t := range fracToks {
		if t.kind == xlDigit {
			fslots = append(fslots, i)
		}
	}
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
	for i, t := range fracToks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case xlDigit:
			b.WriteString(fpieces[i])
		case xlPercent:
			b.WriteByte('%')
		case xlPoint:
			b.WriteByte('.')
		}
	}
}

// renderExp renders scientific notation; e is the index of the exponent
// token.
func (s *xlSection) renderExp(x float64, e int) string {
	mant := s.toks[:e]
	nInt, nFrac, hash := 0, 0, false
	seenPoint := false
	for _, t := range mant {
		switch {
		case t.kind == xlPoint:
			seenPoint = true
		case t.kind == xlDigit && seenPoint:
			nFrac++
		case t.kind == xlDigit:
			nInt++
			hash = hash || t.c == '#'
		}
	}
	exp := 0
	var ip, fp string
	if x != 0 {
		e10 := xlExponent(x)
		for try := 0; try < 2; try++ {
			if hash && nInt > 1 {
				exp = int(math.Floor(float64(e10)/float64(nInt))) * nInt
			} else {
				exp = e10 - (max(nInt, 1) - 1)
			}
			ip, fp = xlDecimal(x/math.Pow(10, float64(exp)), nFrac)
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
		ip, fp = xlDecimal(0, nFrac)
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
		if t.kind == xlDigit && t.c == '0' {
			minDigits++
		}
	}
	ds := strconv.Itoa(xlAbs(exp))
	if len(ds) < minDigits {
		ds = strings.Repeat("0", minDigits-len(ds)) + ds
	}
	written := false
	for _, t := range rest {
		switch t.kind {
		case xlDigit:
			if !written {
				b.WriteString(ds)
				written = true
			}
		case xlLit:
			b.WriteString(t.s)
		case xlPercent:
			b.WriteByte('%')
		}
	}
	if !written {
		b.WriteString(ds)
	}
	return b.String()
}

func xlAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// renderFraction renders "# ?/?"-style fractions; sl is the slash index.
// Numerator and denominator are written without the space padding Excel
// uses to align fractions.
func (s *xlSection) renderFraction(x float64, sl int) string {
	// Numerator: the placeholders right before the slash.
	ns := sl
	for ns > 0 && s.toks[ns-1].kind == xlDigit {
		ns--
	}
	hasInt := xlDigitBefore(s.toks[:ns])
	// Denominator: placeholders (variable) or literal digits (fixed).
	den, maxDen := 0, 0
	de := sl + 1
	var denDigits strings.Builder
	for de < len(s.toks) {
		t := s.toks[de]
		if t.kind == xlDigit {
			denDigits.WriteByte(t.c)
		} else if t.kind == xlLit && xlAllDigits(t.s) {
			denDigits.WriteString(t.s)
		} else {
			break
		}
		de++
	}
	ds := denDigits.String()
	if ds[0] >= '1' && ds[0] <= '9' && xlAllDigits(ds) {
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
		num, den = xlBestFraction(f, maxDen)
	}
	if num == den && hasInt {
		whole++
		num = 0
	}
	var b strings.Builder
	if hasInt {
		ip, _ := xlDecimal(whole, 0)
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

func xlAllDigits(s string) bool {
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

// xlBestFraction returns the fraction n/d closest to f (0 ≤ f < 1 or any
// f ≥ 0 without an integer part) with d ≤ maxDen, the smallest d on ties.
func xlBestFraction(f float64, maxDen int) (int, int) {
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

// text applies the text section of a format to a text cell: the fourth
// section, or a last section holding @; without one the text shows as is.
func (f *xlFormat) text(v string) string {
	if f.general || len(f.sections) == 0 {
		return v
	}
	var s *xlSection
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

// xlExponent returns floor(log10(x)) for x > 0 after rounding x to 15
// significant digits.
func xlExponent(x float64) int {
	s := strconv.FormatFloat(x, 'e', 14, 64)
	e, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return e
}

// xlDecimal rounds x ≥ 0 to 15 significant digits and then half away from
// zero to nFrac decimals. It returns the integer digits without leading
// zeros ("" for zero) and exactly nFrac fraction digits.
func xlDecimal(x float64, nFrac int) (string, string) {
	nFrac = min(nFrac, 30)
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return "", strings.Repeat("0", nFrac)
	}
	s := strconv.FormatFloat(x, 'e', 14, 64)
	ePos := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[ePos+1:])
	digs := []byte(s[:1] + s[2:ePos])
	point := exp + 1
	keep := point + nFrac
	if keep < 0 {
		return "", strings.Repeat("0", nFrac)
	}
	if keep < len(digs) {
		up := digs[keep] >= '5'
		digs = digs[:keep]
		if up {
			i := keep - 1
			for i >= 0 && digs[i] == '9' {
				digs[i] = '0'
				i--
			}
			if i < 0 {
				digs = append([]byte{'1'}, digs...)
				point++
			} else {
				digs[i]++
			}
		}
	} else {
		for len(digs) < keep {
			digs = append(digs, '0')
		}
	}
	var ip, fp string
	if point > 0 {
		ip, fp = string(digs[:point]), string(digs[point:])
	} else {
		ip, fp = "", strings.Repeat("0", -point)+string(digs)
	}
	return strings.TrimLeft(ip, "0"), fp
}

// xlGeneralNumber is Excel's General format in a cell wide enough: at most
// 11 characters besides the sign; 12 or more integer digits, and numbers
// below 1E-9 or that would lose digits below 1E-4, switch to scientific
// notation with up to 6 significant digits (4901234567894 → 4.90123E+12,
// 123456789.123 → 123456789.1, 0.0000123456 → 1.23457E-05).
func xlGeneralNumber(v float64) string {
	if v == 0 {
		return "0"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "#NUM!"
	}
	sign := ""
	if v < 0 {
		sign = "-"
	}
	a := math.Abs(v)
	e := xlExponent(a)
	var s string
	switch {
	case e >= -4 && e <= -1:
		s = xlStripZeros(xlFixed(a, 9))
	case e >= 0 && e <= 9:
		s = xlStripZeros(xlFixed(a, 12))
		if len(s) > 11 {
			s = xlStripZeros(xlFixed(a, 9-e))
		}
	case e >= -9 && e <= -5:
		s = xlStripZeros(xlFixed(a, 12))
		if len(s) > 11 {
			s = ""
		}
	case e == 10:
		s = xlFixed(a, 0)
	}
	if s == "" || len(s) > 11 {
		s = xlScientific(a)
	}
	return sign + s
}

// xlFixed formats a ≥ 0 with n decimals the Excel way (xlDecimal).
func xlFixed(a float64, n int) string {
	ip, fp := xlDecimal(a, n)
	if ip == "" {
		ip = "0"
	}
	if n == 0 {
		return ip
	}
	return ip + "." + fp
}

// xlStripZeros removes trailing fraction zeros and a bare decimal point.
func xlStripZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// xlScientific is General's exponent form: 6 significant digits, trailing
// zeros removed, at least two exponent digits (1.23457E+11, 1E-10).
func xlScientific(a float64) string {
	s := strconv.FormatFloat(a, 'E', 14, 64) // round to 15 digits first
	f, _ := strconv.ParseFloat(s, 64)
	s = strconv.FormatFloat(f, 'E', 5, 64)
	i := strings.IndexByte(s, 'E')
	m, ex := s[:i], s[i+1:]
	m = xlStripZeros(m)
	sign := ex[:1]
	digits := strings.TrimLeft(ex[1:], "0")
	for len(digits) < 2 {
		digits = "0" + digits
	}
	return m + "E" + sign + digits
}
