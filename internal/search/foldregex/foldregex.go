package foldregex

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/fumibako/fumibako/internal/search/linedfa"
	"github.com/fumibako/fumibako/internal/textfold"
)

// Regex is a compiled regex word.
type Regex struct {
	Re *regexp.Regexp
	// Required are literals every match contains, in the folded (and
	// kana) space: the n-gram keys and the needle of the first scan.
	Required []string
	// DFA finds candidate lines in the space Re matches in (folded, or
	// original with --case); nil when linedfa cannot compile the pattern.
	DFA *linedfa.Matcher
}

// Compile compiles a regex word as the user typed it: fold, match the
// folded text (no --case); kana, hiragana and katakana alike (--kana). A
// pattern that does not parse gives regexp/syntax's error (a
// *syntax.Error where it names the offending text), for the caller to
// place in the query.
func Compile(pattern string, fold, kana bool) (*Regex, error) {
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return nil, err
	}
	tree, err := syntax.Parse(dotNetClasses(pattern), syntax.Perl)
	if err != nil {
		tree, err = syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			return nil, err
		}
	}
	adjust(tree, fold, kana)
	var lit func(string) string
	if !fold {
		lit = func(l string) string {
			l = textfold.CaseNeedle(l)
			if kana {
				l = textfold.Kana(l)
			}
			return l
		}
	}
	return compiled(tree, lit)
}

// CompilePieces compiles a literal word whose folded form has
// alternatives (textfold.Pattern) into a Regex of the folded (and kana)
// space: its pieces in order, each one of its alternatives. Its required
// literals are the pieces without alternatives.
func CompilePieces(pieces []textfold.Piece, kana bool) (*Regex, error) {
	tree, err := syntax.Parse(textfold.Regexp(pieces, kana), syntax.Perl)
	if err != nil {
		return nil, err
	}
	return compiled(tree, nil)
}

// compiled makes the Regex of an adjusted tree: its regexp, its DFA when
// linedfa can build one, and the literals every match holds, each put in
// the space of the folded text by lit (nil: they are in it already).
func compiled(tree *syntax.Regexp, lit func(string) string) (*Regex, error) {
	re, err := regexp.Compile(tree.String())
	if err != nil {
		return nil, err
	}
	t := &Regex{Re: re}
	if m, err := linedfa.Compile(tree); err == nil {
		t.DFA = m
	}
	for _, l := range required(tree) {
		if lit != nil {
			l = lit(l)
		}
		if l != "" {
			t.Required = append(t.Required, l)
		}
	}
	return t, nil
}

// dotNetClasses widens \s \S \w \W \d \D to tebunko's .NET meaning.
// Inside brackets only the positive forms are widened.
func dotNetClasses(p string) string {
	// The class contents of \s, \w and \d; \S, \W and \D negate them.
	classes := map[byte]string{
		's': `\s\x{2028}\x{3000}`,
		'w': `\p{L}\p{Mn}\p{Nd}\p{Pc}`,
		'd': `\p{Nd}`,
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			i++
			if n == 'Q' {
				// \Q…\E is literal text: copy it unchanged.
				end := strings.Index(p[i+1:], `\E`)
				if end < 0 {
					b.WriteString(p[i-1:])
					return b.String()
				}
				b.WriteString(p[i-1 : i+1+end+2])
				i += end + 2
				continue
			}
			lower := n | 0x20 // S W D → s w d
			cls, known := classes[lower]
			switch {
			case known && n == lower && inClass:
				b.WriteString(cls)
			case known && n == lower:
				b.WriteString("[" + cls + "]")
			case known && !inClass:
				b.WriteString("[^" + cls + "]")
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			// A ] right after [ or [^ is a literal.
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == '[' && inClass && i+1 < len(p) && p[i+1] == ':':
			// [:alpha:] inside a class
			if j := strings.Index(p[i:], ":]"); j > 0 {
				b.WriteString(p[i : i+j+2])
				i += j + 1
			} else {
				b.WriteByte(c)
			}
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// adjust rewrites a parsed pattern in place: folding, kana, line safety.
func adjust(re *syntax.Regexp, fold, kana bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if fold {
			s = textfold.String(s)
			re.Flags &^= syntax.FoldCase
		}
		if kana {
			s = textfold.Kana(s)
		}
		if strings.ContainsRune(s, '\n') {
			*re = syntax.Regexp{Op: syntax.OpNoMatch}
			return
		}
		re.Rune = []rune(s)
	case syntax.OpCharClass:
		r := re.Rune
		if fold || kana {
			r = classImage(r, fold, kana)
		}
		r = subtract(r, '\n')
		if len(r) == 0 {
			*re = syntax.Regexp{Op: syntax.OpNoMatch}
			return
		}
		re.Rune = r
		re.Flags &^= syntax.FoldCase
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText:
		re.Op = syntax.OpEndLine
	}
	for _, s := range re.Sub {
		adjust(s, fold, kana)
	}
}

// classImage maps a class (pairs of lo, hi) into the folded space. A class
// holding the last rune is taken as negated: the complement of the image
// of its complement, so [^a-z] does not match a folded `a` that came from
// `Ａ`.
func classImage(r []rune, fold, kana bool) []rune {
	if len(r) > 0 && r[len(r)-1] == unicode.MaxRune {
		return complement(image(complement(r), fold, kana))
	}
	return image(r, fold, kana)
}

func mapRune(c rune, fold, kana bool) rune {
	if fold {
		c = textfold.Rune(c)
	}
	if kana {
		c = textfold.KanaRune(c)
	}
	return c
}

// image returns the set {mapRune(c) : c in r} as sorted pairs. Only runes
// in the ranges that folding can change are mapped one by one.
func image(r []rune, fold, kana bool) []rune {
	var out []rune
	ch := changing()
	for i := 0; i+1 < len(r); i += 2 {
		lo, hi := r[i], r[i+1]
		for lo <= hi {
			// next changing range that overlaps [lo, hi]
			j, _ := slices.BinarySearchFunc(ch, lo, func(p [2]rune, t rune) int {
				if p[1] < t {
					return -1
				}
				return 1
			})
			if j == len(ch) || ch[j][0] > hi {
				out = append(out, lo, hi)
				break
			}
			if ch[j][0] > lo {
				out = append(out, lo, ch[j][0]-1)
				lo = ch[j][0]
			}
			end := min(hi, ch[j][1])
			for c := lo; c <= end; c++ {
				m := mapRune(c, fold, kana)
				out = append(out, m, m)
			}
			if end == unicode.MaxRune {
				break
			}
			lo = end + 1
		}
	}
	return normalize(out)
}

// changing returns the sorted ranges of runes that folding or kana folding
// may map to another rune.
var changing = sync.OnceValue(func() [][2]rune {
	var rs [][2]rune
	for _, cr := range unicode.CaseRanges {
		rs = append(rs, [2]rune{rune(cr.Lo), rune(cr.Hi)})
	}
	rs = append(rs, [2]rune{0x3000, 0x3000}, [2]rune{0x30A1, 0x30F6}, [2]rune{0x30FD, 0x30FE}, [2]rune{0xFF00, 0xFFEF})
	slices.SortFunc(rs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out [][2]rune
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
})

// normalize sorts and merges pairs.
func normalize(r []rune) []rune {
	type pr struct{ lo, hi rune }
	ps := make([]pr, 0, len(r)/2)
	for i := 0; i+1 < len(r); i += 2 {
		ps = append(ps, pr{r[i], r[i+1]})
	}
	slices.SortFunc(ps, func(a, b pr) int { return int(a.lo - b.lo) })
	var out []rune
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p.hi)
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

// complement returns the pairs of every rune not in r (r normalized).
func complement(r []rune) []rune {
	r = normalize(r)
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(r); i += 2 {
		if r[i] > next {
			out = append(out, next, r[i]-1)
		}
		next = r[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// subtract removes one rune from normalized pairs.
func subtract(r []rune, c rune) []rune {
	var out []rune
	for i := 0; i+1 < len(r); i += 2 {
		lo, hi := r[i], r[i+1]
		if c < lo || c > hi {
			out = append(out, lo, hi)
			continue
		}
		if lo < c {
			out = append(out, lo, c-1)
		}
		if c < hi {
			out = append(out, c+1, hi)
		}
	}
	return out
}

// required returns literals that every match of re contains.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return []string{strings.ToLower(string(re.Rune))}
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		run := ""
		for _, s := range re.Sub {
			if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0 {
				run += string(s.Rune)
				continue
			}
			if run != "" {
				out = append(out, run)
				run = ""
			}
			out = append(out, required(s)...)
		}
		if run != "" {
			out = append(out, run)
		}
		return out
	}
	return nil
}
