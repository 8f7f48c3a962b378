package searchcorpus

import "strings"

// Query is one benchmark query with its anchors' equivalents.
type Query struct {
	Name  string
	Words []string // fumibako words
	Regex bool
	// Rg is the ripgrep pattern; RgFixed adds -F.
	Rg      string
	RgFixed bool
	// FTS is the SQLite condition on the FTS5 table t(path, line).
	FTS string
	// Target names the DESIGN.md target the query checks ("" = none).
	Target string
}

// Queries are the benchmark's queries: rare words, common words (the cap
// is reached), 1- and 2-character Japanese words, and regular expressions
// with and without a usable literal.
var Queries = []Query{
	{Name: "rare ja (rare chars)", Words: []string{RareJa}, Rg: RareJa, RgFixed: true, FTS: match(RareJa), Target: "rare"},
	{Name: "rare en", Words: []string{RareEn}, Rg: RareEn, RgFixed: true, FTS: match(RareEn), Target: "rare"},
	{Name: "rare ja (common chars)", Words: []string{RareMix}, Rg: RareMix, RgFixed: true, FTS: match(RareMix), Target: "rare"},
	{Name: "absent", Words: []string{Absent}, Rg: Absent, RgFixed: true, FTS: match(Absent), Target: "rare"},
	{Name: "common (cap)", Words: []string{CommonJa}, Rg: CommonJa, RgFixed: true, FTS: match(CommonJa)},
	{Name: "1 char (cap)", Words: []string{OneChar}, Rg: OneChar, RgFixed: true, FTS: "instr(line, '" + OneChar + "') > 0", Target: "short"},
	{Name: "2 chars (cap)", Words: []string{TwoChar}, Rg: TwoChar, RgFixed: true, FTS: "instr(line, '" + TwoChar + "') > 0", Target: "short"},
	{Name: "regex no literal", Words: []string{`[0-9]{3}-[0-9]{4}`}, Regex: true, Rg: `[0-9]{3}-[0-9]{4}`, FTS: `line REGEXP '[0-9]{3}-[0-9]{4}'`, Target: "regex"},
	{Name: "regex with literal", Words: []string{`鬱金.*件`}, Regex: true, Rg: `鬱金.*件`, FTS: `line REGEXP '鬱金.*件'`},
}

// match is an FTS5 phrase query for a literal of three or more characters.
func match(s string) string {
	return "t MATCH '\"" + strings.ReplaceAll(s, `"`, `""`) + "\"'"
}
