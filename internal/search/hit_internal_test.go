package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShorten: the 1,000/200 rule (reference/search.md §3) on lines of
// every length, with the match marked by [ and ] in the input.
func TestShorten(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	j := func(n int) string { return strings.Repeat("字", n) }
	for _, tc := range []struct {
		name, line string
		// wantBefore/wantAfter: characters kept before and after the
		// match; cutStart/cutEnd: whether `…` marks that end.
		wantBefore, wantAfter int
		cutStart, cutEnd      bool
	}{
		{"short line", a(10) + "[語]" + a(10), 10, 10, false, false},
		{"exactly 1,000", a(500) + "[語]" + a(499), 500, 499, false, false},
		{"match far in", a(5000) + "[語]" + a(5000), 200, 799, true, true},
		{"match near the start", a(50) + "[語]" + a(5000), 50, 949, false, true},
		{"match near the end", a(5000) + "[語]" + a(50), 949, 50, true, false},
		{"multibyte", j(3000) + "[語]" + j(3000), 200, 799, true, true},
		{"no match: from the start", a(3000), 0, 1000, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Hit{Text: tc.line}
			if i := strings.Index(tc.line, "["); i >= 0 {
				k := strings.Index(tc.line, "]")
				h.Text = tc.line[:i] + tc.line[i+1:k] + tc.line[k+1:]
				h.Matches = [][2]int{{i, k - 1}}
			}
			h.shorten()
			body := strings.TrimSuffix(strings.TrimPrefix(h.Text, "…"), "…")
			if got := strings.HasPrefix(h.Text, "…"); got != tc.cutStart {
				t.Errorf("cut at the start %v, want %v", got, tc.cutStart)
			}
			if got := strings.HasSuffix(h.Text, "…"); got != tc.cutEnd {
				t.Errorf("cut at the end %v, want %v", got, tc.cutEnd)
			}
			if len(h.Matches) == 0 {
				if n := utf8.RuneCountInString(body); n != tc.wantAfter {
					t.Errorf("%d characters kept, want %d", n, tc.wantAfter)
				}
				return
			}
			m := h.Matches[0]
			if h.Text[m[0]:m[1]] != "語" {
				t.Fatalf("match %v covers %q", m, h.Text[m[0]:m[1]])
			}
			before := utf8.RuneCountInString(strings.TrimPrefix(h.Text[:m[0]], "…"))
			after := utf8.RuneCountInString(strings.TrimSuffix(h.Text[m[1]:], "…"))
			if before != tc.wantBefore || after != tc.wantAfter {
				t.Errorf("kept %d before and %d after the match, want %d and %d", before, after, tc.wantBefore, tc.wantAfter)
			}
		})
	}
}

// TestShortenMatches: matches outside the kept text are dropped, one that
// the cut crosses is cut with it.
func TestShortenMatches(t *testing.T) {
	line := strings.Repeat("x", 300) + "ab" + strings.Repeat("y", 796) + "cdef" + strings.Repeat("z", 500)
	h := Hit{Text: line, Matches: [][2]int{{300, 302}, {1098, 1102}, {1600, 1602}}}
	h.shorten()
	// Kept: runes 100 to 1100 of the line, behind `…` (3 bytes).
	want := [][2]int{{203, 205}, {1001, 1003}}
	if len(h.Matches) != len(want) || h.Matches[0] != want[0] || h.Matches[1] != want[1] {
		t.Fatalf("matches %v, want %v", h.Matches, want)
	}
	if h.Text[want[1][0]:want[1][1]] != "cd" {
		t.Errorf("cut match covers %q", h.Text[want[1][0]:want[1][1]])
	}
}
