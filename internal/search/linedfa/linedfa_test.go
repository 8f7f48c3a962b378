package linedfa_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/search/linedfa"
)

// reported returns the numbers (0-based) of the lines NextLine reports.
func reported(tb testing.TB, s *linedfa.Scanner, text []byte) []int {
	tb.Helper()
	var out []int
	line, lineStart := 0, 0
	for from := 0; ; {
		start, ok := s.NextLine(text, from)
		if !ok {
			return out
		}
		if start < from || start >= len(text) || (start > 0 && text[start-1] != '\n') {
			tb.Fatalf("NextLine(%d) = %d, not a line start at or after it", from, start)
		}
		line += bytes.Count(text[lineStart:start], []byte{'\n'})
		lineStart = start
		out = append(out, line)
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			return out
		}
		from = start + end + 1
	}
}

// compile parses a pattern with Perl flags and compiles it both ways.
func compile(tb testing.TB, pattern string) (*linedfa.Matcher, *regexp.Regexp, *syntax.Regexp) {
	tb.Helper()
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		tb.Fatalf("syntax.Parse(%q): %v", pattern, err)
	}
	m, err := linedfa.Compile(re)
	if err != nil {
		tb.Fatalf("Compile(%q): %v", pattern, err)
	}
	return m, regexp.MustCompile(re.String()), re
}

// hasAssertion reports whether re holds an empty-width assertion.
func hasAssertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return slices.ContainsFunc(re.Sub, hasAssertion)
}

// agree checks NextLine against Go's regexp line by line: every matching
// line is reported, and without assertions no valid UTF-8 line more.
func agree(t *testing.T, pattern string, text []byte) {
	t.Helper()
	m, re, tree := compile(t, pattern)
	compareLines(t, pattern, re, !hasAssertion(tree), reported(t, m.NewScanner(), text), string(text))
}

// compareLines checks the reported line numbers got against Go's regexp
// on each line of text; exact: no valid UTF-8 line may be reported that
// regexp does not match.
func compareLines(t testing.TB, pattern string, re *regexp.Regexp, exact bool, got []int, text string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	if len(text) == 0 {
		lines = nil
	} else if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		want := re.MatchString(l)
		has := slices.Contains(got, i)
		if want && !has {
			t.Errorf("%q: line %d %q not reported, regexp matches it", pattern, i, l)
		}
		if !want && has && exact && utf8.ValidString(l) {
			t.Errorf("%q: line %d %q reported, regexp does not match it", pattern, i, l)
		}
	}
}

// lines is a mixed Japanese and English text for the agreement tests.
var lines = strings.Join([]string{
	"見積書 No. 2024-0153 株式会社東京物産 御中",
	"電話 03-1234-5678 担当：山田",
	"ERROR 404 not found",
	"Error: disk full (error 28)",
	"warning: eRRoR 7 ignored",
	"ひらがなだけのぎょう",
	"カタカナテキストデータ",
	"ｶﾀｶﾅ半角ｶﾅ",
	"漢字と仮名の混じった文",
	"",
	"Straße STRASSE strasse ſ K k",
	"ÀÉÎÕÜ àéîõü",
	"\t\tタブ\t区切り\t",
	"Emoji 😀 and 𠮷野家",
	"123-4567 and 12-34567",
	"a",
	"   ",
	"The quick brown fox jumps over the lazy dog",
	"最後の行は改行なし",
}, "\n")

func TestAgreement(t *testing.T) {
	patterns := []string{
		// classes
		`[0-9]{3}-[0-9]{4}`, `[0-9]+`, `[^0-9]`, `[a-z]+`, `[A-Z][a-z]+`, `\d{2,}`, `\s+`,
		`\w+`, `[[:alpha:]]`, `[^\x00-\x7F]`, `[^ぁ-ん]{3}`, `[^\t]`,
		// alternation and repetition
		`error|warning`, `(ab|cd)+`, `見積|請求`, `(株式会社|有限会社)\p{Han}+`, `x{0}`,
		`[0-9]{1,3}`, `o{2,}`, `(?:ひら|カタ){1,2}`, `a?b?c?d`, `(fox|dog)s?`,
		// any character
		`.`, `a.b`, `山.`, `.{20,}`, `.*データ`, `(?s).`, `物.御`,
		// case folding
		`(?i)error [0-9]+`, `(?i)strasse`, `(?i)k`, `(?i)ſ`, `(?i)ÀÉ`, `(?i)[a-c]+`, `(?i)é`,
		// non-ASCII ranges and scripts
		`[ぁ-ん]+`, `[ァ-ヶー]{4,}`, `\p{Han}`, `\p{Han}{3}`, `\p{Katakana}{5,}`,
		`\p{Hiragana}+の`, `[\x{1F600}-\x{1F64F}]`, `\x{20BB7}`, `[ｦ-ﾟ]+`, `\pL{4}`, `\PL`,
		// anchors (superset only)
		`^見積`, `なし$`, `\A[0-9]`, `文\z`, `\bfox\b`, `\Bow`, `^$`, `^\s*$`,
		// empty matches
		``, `()`, `a*`, `(?:)|x`, `x*?`,
		// no match
		`[^\x00-\x{10FFFF}]`, `[^\D\d]`,
	}
	for _, p := range patterns {
		t.Run(p, func(t *testing.T) {
			agree(t, p, []byte(lines))
			agree(t, p, []byte(lines+"\n"))
		})
	}
}

func TestNextLine(t *testing.T) {
	tests := []struct {
		name, pattern, text string
		from                int
		want                int // -1: none
	}{
		{"first", `b`, "abc\nb\n", 0, 0},
		{"second", `x`, "abc\nxyz\n", 0, 4},
		{"from", `a`, "abc\nabc\n", 4, 4},
		{"none", `q`, "abc\nxyz\n", 0, -1},
		{"last line without LF", `z`, "abc\nxyz", 0, 4},
		{"empty text", `a*`, "", 0, -1},
		{"from at end", `a*`, "abc\n", 4, -1},
		{"empty pattern", ``, "\n\n", 1, 1},
		{"match ends at LF", `c$`, "abc\ndef\n", 0, 0},
		{"no match across LF", `c\nd`, "abc\ndef\n", 0, -1},
		{"invalid UTF-8 with dot", `a.c`, "abd\na\xffc\n", 0, 4},
		{"invalid UTF-8 reported", `[^x]`, "xxx\nx\xe3x\n", 0, 4},
		{"invalid UTF-8, ASCII class", `b`, "a\xffa\nab\n", 0, 4},
		{"invalid lead before match", `あ`, "\xe3あ\n", 0, 0},
		{"truncated at end", `\x{FFFD}`, "ab\nc\xe3\x81", 0, 3},
		{"surrogate is invalid", `.`, "\xed\xa0\x80\n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _, _ := compile(t, tt.pattern)
			got, ok := m.NewScanner().NextLine([]byte(tt.text), tt.from)
			if !ok {
				got = -1
			}
			if got != tt.want {
				t.Errorf("NextLine(%q, %d) for %q = %d, want %d", tt.text, tt.from, tt.pattern, got, tt.want)
			}
		})
	}
}

// TestCacheReset forces a pattern with exponentially many DFA states
// through more states than the cache holds.
func TestCacheReset(t *testing.T) {
	const pattern = `a[ab]{16}c`
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := range 1 << 20 {
		b.WriteByte("ab"[r.IntN(2)])
		if i%4096 == 4095 {
			b.WriteString("c\n")
		}
	}
	for i := range 40 {
		b.WriteString(strings.Repeat("ab", i) + "\n")
	}
	text := []byte(b.String())
	m, re, _ := compile(t, pattern)
	s := m.NewScanner()
	got := reported(t, s, text)
	var want []int
	for i, l := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if re.MatchString(l) {
			want = append(want, i)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("reported %v, want %v", got, want)
	}
	if s.Resets() == 0 {
		t.Errorf("Resets = 0, want the cache dropped at least once")
	}
}

func TestCompileTooLarge(t *testing.T) {
	re, err := syntax.Parse(`\pL{1000}`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := linedfa.Compile(re); err == nil {
		t.Fatalf("Compile(\\pL{1000}) succeeded, want an error")
	} else if !errors.Is(err, linedfa.ErrTooLarge) {
		t.Fatalf("Compile(\\pL{1000}) = %v, want ErrTooLarge", err)
	}
}

// TestConcurrent scans with one Scanner per goroutine over a shared Matcher.
func TestConcurrent(t *testing.T) {
	m, _, _ := compile(t, `\p{Katakana}{3}|[0-9]{3}`)
	text := []byte(strings.Repeat(lines+"\n", 50))
	want := reported(t, m.NewScanner(), text)
	done := make(chan []int)
	for range 4 {
		go func() { done <- reported(t, m.NewScanner(), text) }()
	}
	for range 4 {
		if got := <-done; !slices.Equal(got, want) {
			t.Errorf("concurrent scan reported %v, want %v", got, want)
		}
	}
}
