package linedfa_test

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"testing"

	"github.com/fumibako/fumibako/internal/search/linedfa"
)

// FuzzAgreement checks NextLine against Go's regexp on every line of the
// text: a matching line is always reported (superset), and without
// empty-width assertions a valid UTF-8 line is reported only when it
// matches (exact). Patterns that can match LF are kept: no line holds
// LF, so they must agree too. Seeds: testdata/fuzz/FuzzAgreement and the
// f.Add calls below.
func FuzzAgreement(f *testing.F) {
	for _, s := range [][2]string{
		{`[0-9]{3}-[0-9]{4}`, "電話 03-1234-5678\n123-45\n"},
		{`(?i)error [0-9]+`, "ERROR 42\nerror x\nErRoR 7"},
		{`\p{Katakana}{5,}`, "カタカナテキスト\nカタカナ\n"},
		{`[^ぁ-ん]+`, "ひらがな\nカナ\n\xe3\x81\n"},
		{`a.b`, "a\xffb\naあb\nab\n"},
		{`^$`, "\n\nx\n"},
		{`(?i)ſ|k`, "S\nK\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		tree, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			return
		}
		re, err := regexp.Compile(tree.String())
		if err != nil {
			return
		}
		m, err := linedfa.Compile(tree)
		if errors.Is(err, linedfa.ErrTooLarge) {
			return
		}
		if err != nil {
			t.Fatalf("Compile(%q): %v", pattern, err)
		}
		compareLines(t, pattern, re, !hasAssertion(tree), reported(t, m.NewScanner(), []byte(text)), text)
	})
}
