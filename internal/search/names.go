package search

import (
	"regexp"
	"strings"

	"github.com/fumibako/fumibako/internal/textfold"
)

// namePattern is a file-name filter in the reference's wildcard syntax
// (reference/search.md §4, Sakura Editor Grep style): patterns separated
// by ; or ；, a leading ! or ！ excludes, * is any run of characters and ?
// one character, a pattern without wildcards matches as a substring.
// Matching looks at the file name only and ignores case (and, as the
// search does, width). A name passes when it matches an include pattern
// (if there is any) and no exclude pattern.
type namePattern struct {
	include, exclude []*regexp.Regexp
}

// parseNames parses a --name value; an empty value gives nil (no filter).
func parseNames(s string) (*namePattern, error) {
	var n namePattern
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '；' }) {
		p = strings.TrimSpace(p)
		excl := false
		if strings.HasPrefix(p, "!") || strings.HasPrefix(p, "！") {
			excl = true
			p = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(p, "!"), "！"))
		}
		if p == "" {
			continue
		}
		p = textfold.String(p)
		if !strings.ContainsAny(p, "*?") {
			p = "*" + p + "*"
		}
		var b strings.Builder
		b.WriteString(`^(?s:`)
		for _, r := range p {
			switch r {
			case '*':
				b.WriteString(`.*`)
			case '?':
				b.WriteString(`.`)
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		b.WriteString(`)$`)
		re := regexp.MustCompile(b.String())
		if excl {
			n.exclude = append(n.exclude, re)
		} else {
			n.include = append(n.include, re)
		}
	}
	if len(n.include) == 0 && len(n.exclude) == 0 {
		return nil, nil
	}
	return &n, nil
}

// match reports whether a file name passes the filter.
func (n *namePattern) match(name string) bool {
	if n == nil {
		return true
	}
	f := textfold.String(name)
	for _, re := range n.exclude {
		if re.MatchString(f) {
			return false
		}
	}
	if len(n.include) == 0 {
		return true
	}
	for _, re := range n.include {
		if re.MatchString(f) {
			return true
		}
	}
	return false
}
