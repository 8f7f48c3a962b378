package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// exponent returns floor(log10(x)) for x > 0 after rounding x to 15
// significant digits.
func exponent(x float64) int {
	s := strconv.FormatFloat(x, 'e', 14, 64)
	e, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return e
}

// decimal rounds x ≥ 0 to 15 significant digits and then half away from
// zero to nFrac decimals. It returns the integer digits without leading
// zeros ("" for zero) and exactly nFrac fraction digits.
func decimal(x float64, nFrac int) (string, string) {
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

// generalNumber is Excel's General format in a cell wide enough: at most
// 11 characters besides the sign; 12 or more integer digits, and numbers
// below 1E-9 or that would lose digits below 1E-4, switch to scientific
// notation with up to 6 significant digits (4901234567894 → 4.90123E+12,
// 123456789.123 → 123456789.1, 0.0000123456 → 1.23457E-05).
func generalNumber(v float64) string {
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
	e := exponent(a)
	var s string
	switch {
	case e >= -4 && e <= -1:
		s = stripZeros(fixed(a, 9))
	case e >= 0 && e <= 9:
		s = stripZeros(fixed(a, 12))
		if len(s) > 11 {
			s = stripZeros(fixed(a, 9-e))
		}
	case e >= -9 && e <= -5:
		s = stripZeros(fixed(a, 12))
		if len(s) > 11 {
			s = ""
		}
	case e == 10:
		s = fixed(a, 0)
	}
	if s == "" || len(s) > 11 {
		s = scientific(a)
	}
	return sign + s
}

// fixed formats a ≥ 0 with n decimals the Excel way (decimal).
func fixed(a float64, n int) string {
	ip, fp := decimal(a, n)
	if ip == "" {
		ip = "0"
	}
	if n == 0 {
		return ip
	}
	return ip + "." + fp
}

// stripZeros removes trailing fraction zeros and a bare decimal point.
func stripZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// scientific is General's exponent form: 6 significant digits, trailing
// zeros removed, at least two exponent digits (1.23457E+11, 1E-10).
func scientific(a float64) string {
	s := strconv.FormatFloat(a, 'E', 14, 64) // round to 15 digits first
	f, _ := strconv.ParseFloat(s, 64)
	s = strconv.FormatFloat(f, 'E', 5, 64)
	i := strings.IndexByte(s, 'E')
	m, ex := s[:i], s[i+1:]
	m = stripZeros(m)
	sign := ex[:1]
	digits := strings.TrimLeft(ex[1:], "0")
	for len(digits) < 2 {
		digits = "0" + digits
	}
	return m + "E" + sign + digits
}
