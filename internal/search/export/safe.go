package export

import "strings"

// SafeCell neutralises a cell that a spreadsheet would read as a formula,
// the way OWASP's "CSV Injection" page recommends: a cell that begins with
// = + - @, TAB or CR gets a leading apostrophe, so Excel and LibreOffice
// show it as text instead of evaluating it (document text such as
// `=HYPERLINK(…)` or `=cmd|' /C calc'!A0` stays text; issue 15). Every cell
// of search_results.txt and search_results.csv goes through it.
//
// A plain number (`-5`, `+81`, `-1,234.5`, `-12%`) is left as it is: Excel
// reads it as that number, it cannot hold a formula, and a leading
// apostrophe would show in the file. Anything else after the sign (`-1+2`,
// `-A1`, `-cmd|…`) is neutralised.
func SafeCell(s string) string {
	if !formulaStart(s) || plainNumber(s) {
		return s
	}
	return "'" + s
}

// formulaStart reports whether s begins with a character that starts a
// formula (or is skipped before one) when a spreadsheet reads the cell.
func formulaStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// plainNumber reports whether s is a sign followed by a decimal number:
// digits (or groups of three after a first group of one to three, with
// commas), an optional fraction and an optional percent sign.
func plainNumber(s string) bool {
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return false
	}
	s = strings.TrimSuffix(s[1:], "%")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	if hasFrac && (frac == "" || !allDigits(frac)) {
		return false
	}
	if allDigits(intPart) {
		return intPart != ""
	}
	groups := strings.Split(intPart, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 || !allDigits(groups[0]) {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 || !allDigits(g) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// safeQuotedField neutralises one Excel-split field of a line as written
// (Fields): a quoted field gets its apostrophe inside the quotes, where
// Excel's reading of the cell starts.
func safeQuotedField(f string) string {
	if len(f) >= 1 && f[0] == '"' {
		inner := f[1:]
		if formulaStart(inner) && !plainNumber(strings.TrimSuffix(inner, `"`)) {
			return `"'` + inner
		}
		return f
	}
	return SafeCell(f)
}
