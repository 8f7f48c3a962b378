package main

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Kinds named by what the cell is rather than by its texts.
const (
	kindPivot   = "sheet with a pivot table: LibreOffice rebuilds the table on load, fumibako shows the cells saved in the file"
	kindFormula = "formula: LibreOffice recalculated a different result, fumibako shows the value cached in the file"
)

// classify names the kind of difference between fumibako's text and
// LibreOffice's for one cell; formula says the cell holds one, pivot
// that its sheet holds a pivot table. Differences of display (number
// formats, locale words, spacing) are named first, even for formula
// cells; then other differences on a pivot table's sheet (LibreOffice
// lays the rebuilt table out its own way, so cells move) and formulas
// whose value differs; the rest by the texts, down to a coarse shape of
// both. A kind says which side shows what.
func classify(ours, lo string, formula, pivot bool) string {
	if k := displayKind(ours, lo, formula); k != "" {
		return k
	}
	switch {
	case pivot:
		return kindPivot
	case formula:
		return kindFormula
	}
	return valueKind(ours, lo)
}

// displayKind names differences in how the same value is shown. A
// formula's numbers that differ in the last shown digit are left to the
// formula kind: LibreOffice's recalculated value may differ in the last
// bits from the cached one.
func displayKind(ours, lo string, formula bool) string {
	switch {
	case ours == "" || lo == "":
		return ""
	case strings.TrimSpace(ours) == strings.TrimSpace(lo):
		return "leading/trailing spaces (" + spaceSide(ours, lo) + ")"
	case strings.Join(strings.Fields(ours), " ") == strings.Join(strings.Fields(lo), " "):
		return "spaces or line breaks inside the cell"
	case strings.EqualFold(ours, lo):
		return "letter case: fumibako " + clip(ours) + ", LibreOffice " + clip(lo)
	case norm.NFKC.String(ours) == norm.NFKC.String(lo):
		return "full-width vs half-width characters"
	}
	if k := booleanKind(ours, lo); k != "" {
		return k
	}
	if k := numberKind(ours, lo, formula); k != "" {
		return k
	}
	if stripZeros(ours) == stripZeros(lo) {
		if len(ours) < len(lo) {
			return "zero padding: fumibako unpadded, LibreOffice " + zeroShape(lo)
		}
		return "zero padding: fumibako " + zeroShape(ours) + ", LibreOffice unpadded"
	}
	if k := wordsKind(ours, lo); k != "" {
		return k
	}
	if digitRuns(ours) != "" && digitRuns(ours) == digitRuns(lo) {
		return "same numbers, other layout: fumibako " + shape(ours) + ", LibreOffice " + shape(lo)
	}
	return ""
}

// valueKind names differences in the values themselves.
func valueKind(ours, lo string) string {
	switch {
	case ours == "":
		return "empty in fumibako, LibreOffice shows " + valueClass(lo)
	case lo == "":
		return "empty in LibreOffice, fumibako shows " + valueClass(ours)
	case isError(ours) || isError(lo):
		return "error value: fumibako " + clip(ours) + ", LibreOffice " + clip(lo)
	}
	_, okA := numberValue(ours)
	_, okB := numberValue(lo)
	switch {
	case okA && okB:
		return "different numbers: fumibako " + shape(ours) + ", LibreOffice " + shape(lo)
	case strings.Contains(lo, ours):
		return "fumibako shows part of LibreOffice's text"
	case strings.Contains(ours, lo):
		return "LibreOffice shows part of fumibako's text"
	}
	return "other: fumibako " + shape(ours) + ", LibreOffice " + shape(lo)
}

// booleanKind: Excel shows a boolean cell as TRUE or FALSE whatever its
// number format; LibreOffice keeps booleans as numbers and shows 1 or 0,
// or the number under the cell's format.
func booleanKind(ours, lo string) string {
	b := map[string]string{"TRUE": "1", "FALSE": "0"}[ours]
	if b == "" {
		return ""
	}
	switch {
	case lo == b:
		return "boolean: fumibako TRUE/FALSE, LibreOffice 1/0"
	case lo == "1899/12/31" && ours == "TRUE" || lo == "1899/12/30" && ours == "FALSE":
		return "boolean: fumibako TRUE/FALSE, LibreOffice 1/0 under a date format"
	}
	return ""
}

// valueClass says what kind of text a lone non-empty cell holds.
func valueClass(s string) string {
	switch {
	case isError(s):
		return "an error value"
	case strings.TrimSpace(s) == "":
		return "spaces only"
	case isNumber(s):
		return "a number"
	case dateRE.MatchString(s):
		return "a date or time"
	}
	return "text"
}

func spaceSide(ours, lo string) string {
	switch {
	case len(ours) > len(lo):
		return "fumibako has more"
	case len(ours) < len(lo):
		return "LibreOffice has more"
	}
	return "different spaces"
}

var (
	numberRE = regexp.MustCompile(`^[-+(]?[¥$￥€£]?\s*-?[0-9][0-9,]*(\.[0-9]*)?([Ee][-+]?[0-9]+)?\s*%?\)?\s*$|^[-+(]?[¥$￥€£]?\s*-?\.[0-9]+([Ee][-+]?[0-9]+)?\s*%?\)?\s*$`)
	expRE    = regexp.MustCompile(`[0-9][Ee][-+]?[0-9]+`)
	dateRE   = regexp.MustCompile(`^\d{1,4}[-/.年]\d{1,2}[-/.月]\d{1,4}日?|^\d{1,2}:\d{2}`)
	errorRE  = regexp.MustCompile(`^#(NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA|SPILL!|CALC!|FIELD!|BLOCKED!|UNKNOWN!|BUSY!|CONNECT!)$|^Err:\d+$`)
	digitsRE = regexp.MustCompile(`[0-9]+`)
	plainRE  = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
)

func isNumber(s string) bool { return numberRE.MatchString(s) }
func isError(s string) bool  { return errorRE.MatchString(s) }

// numberValue parses a displayed number: currency signs, thousands
// separators, a percent sign and accounting parentheses removed.
func numberValue(s string) (float64, bool) {
	if !isNumber(s) {
		return 0, false
	}
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")")
	pctSign := strings.HasSuffix(strings.TrimSuffix(t, ")"), "%")
	t = strings.Map(func(r rune) rune {
		if r == ',' || r == '(' || r == ')' || r == '%' || unicode.IsSpace(r) || strings.ContainsRune("¥$￥€£", r) {
			return -1
		}
		return r
	}, t)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	if pctSign {
		v /= 100
	}
	return v, true
}

// numberKind names differences of display between two numbers: exponent
// form, Excel's General limit of 11 characters, rounding, separators.
// Numbers of different value give "", and so do rounding differences of
// a formula.
func numberKind(ours, lo string, formula bool) string {
	a, okA := numberValue(ours)
	b, okB := numberValue(lo)
	if !okA || !okB {
		return ""
	}
	expA, expB := expRE.MatchString(ours), expRE.MatchString(lo)
	switch {
	case !withinDisplay(a, b, ours, lo):
		return ""
	case expA && !expB:
		return "General: exponent form in fumibako (" + shape(ours) + "), all digits in LibreOffice (" + shape(lo) + ")"
	case expB && !expA:
		return "General: exponent form in LibreOffice (" + shape(lo) + "), all digits in fumibako (" + shape(ours) + ")"
	case a == b:
		return "same number, other format: fumibako " + shape(ours) + ", LibreOffice " + shape(lo)
	case plainRE.MatchString(ours) && plainRE.MatchString(lo) && len(strings.TrimPrefix(ours, "-")) <= 11 && len(strings.TrimPrefix(lo, "-")) > 11:
		return "General: fumibako rounds to 11 characters, LibreOffice shows more digits"
	}
	da, db := decimals(ours), decimals(lo)
	switch {
	case formula || da == 0 && db == 0:
		return ""
	case da < db:
		return "rounding: fumibako fewer decimals (" + shape(ours) + " vs " + shape(lo) + ")"
	case da > db:
		return "rounding: LibreOffice fewer decimals (" + shape(lo) + " vs " + shape(ours) + ")"
	}
	return "rounding of the last digit (" + shape(ours) + ")"
}

// withinDisplay reports whether a and b differ by no more than the display
// precision of the coarser of the two texts.
func withinDisplay(a, b float64, as, bs string) bool {
	ulp := func(s string, v float64) float64 {
		if expRE.MatchString(s) {
			m := strings.IndexAny(s, "Ee")
			return math.Abs(v) * math.Pow(10, -float64(decimals(s[:m]))) * 1.0001
		}
		u := math.Pow(10, -float64(decimals(s)))
		if strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ")")), "%") {
			u /= 100
		}
		return u
	}
	d := math.Abs(a - b)
	return d <= max(ulp(as, a), ulp(bs, b))*1.0001
}

// decimals counts the digits after the decimal point of a number's text.
func decimals(s string) int {
	i := strings.IndexByte(s, '.')
	if i < 0 {
		return 0
	}
	n := 0
	for _, r := range s[i+1:] {
		if r < '0' || r > '9' {
			break
		}
		n++
	}
	return n
}

// stripZeros drops the leading zeros of every digit run.
func stripZeros(s string) string {
	return digitsRE.ReplaceAllStringFunc(s, func(d string) string {
		t := strings.TrimLeft(d, "0")
		if t == "" {
			return "0"
		}
		return t
	})
}

// zeroShape writes every digit as 0: "2009/01/03" → "0000/00/00".
func zeroShape(s string) string {
	return clip(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0'
		}
		return r
	}, s))
}

// digitRuns is the sequence of digit runs without leading zeros.
func digitRuns(s string) string {
	return strings.Join(digitsRE.FindAllString(stripZeros(s), -1), " ")
}

// shape is a coarse picture of a text: each run of digits becomes 0,
// an exponent's E stays, each run of ASCII letters a, each run of other letters あ; punctuation
// and spaces stay; at most 24 characters.
func shape(s string) string {
	var b []rune
	var last rune
	for _, r := range s {
		c := r
		switch {
		case r >= '0' && r <= '9':
			c = '0'
		case (r == 'E' || r == 'e') && last == '0':
			c = 'E' // exponent form stays visible
		case r < 0x80 && unicode.IsLetter(r):
			c = 'a'
		case unicode.IsLetter(r):
			c = 'あ'
		case r == '\n':
			c = '⏎'
		}
		if (c == '0' || c == 'a' || c == 'あ') && c == last {
			continue
		}
		b = append(b, c)
		last = c
	}
	if len(b) > 24 {
		b = append(b[:24], '…')
	}
	return "«" + string(b) + "»"
}

// clip quotes a text cut to 24 characters.
func clip(s string) string {
	r := []rune(strings.ReplaceAll(s, "\n", "⏎"))
	if len(r) > 24 {
		r = append(r[:24], '…')
	}
	return "«" + string(r) + "»"
}

// wordPairs are locale words where Excel's display and LibreOffice's may
// differ; the first element is what a side shows.
var wordPairs = []struct{ ours, lo, kind string }{
	{"AM", "午前", "AM/PM: fumibako AM/PM, LibreOffice 午前/午後"},
	{"PM", "午後", "AM/PM: fumibako AM/PM, LibreOffice 午前/午後"},
	{"午前", "AM", "AM/PM: fumibako 午前/午後, LibreOffice AM/PM"},
	{"午後", "PM", "AM/PM: fumibako 午前/午後, LibreOffice AM/PM"},
	{"TRUE", "真", "boolean: fumibako TRUE/FALSE, LibreOffice 真/偽"},
	{"FALSE", "偽", "boolean: fumibako TRUE/FALSE, LibreOffice 真/偽"},
}

var (
	englishMonthRE   = regexp.MustCompile(`(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)`)
	englishWeekdayRE = regexp.MustCompile(`(Mon|Tue|Wed|Thu|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)`)
	kanjiMonthRE     = regexp.MustCompile(`[0-9０-９一二三四五六七八九十]+月`)
	kanjiWeekdayRE   = regexp.MustCompile(`[月火水木金土日]曜`)
)

// wordsKind names differences in locale words: AM/PM, month and weekday
// names, booleans.
func wordsKind(ours, lo string) string {
	for _, p := range wordPairs {
		if strings.Contains(ours, p.ours) && strings.Contains(lo, p.lo) {
			return p.kind
		}
	}
	switch {
	case englishMonthRE.MatchString(ours) && kanjiMonthRE.MatchString(lo):
		return "month names: fumibako English, LibreOffice Japanese"
	case kanjiMonthRE.MatchString(ours) && englishMonthRE.MatchString(lo):
		return "month names: fumibako Japanese, LibreOffice English"
	case englishWeekdayRE.MatchString(ours) && kanjiWeekdayRE.MatchString(lo):
		return "weekday names: fumibako English, LibreOffice Japanese"
	case kanjiWeekdayRE.MatchString(ours) && englishWeekdayRE.MatchString(lo):
		return "weekday names: fumibako Japanese, LibreOffice English"
	}
	return ""
}
