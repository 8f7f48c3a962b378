package main

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// runeWidth is the number of terminal columns r takes: 2 for East Asian
// Wide and Fullwidth characters (漢字, かな, ＡＢＣ), 0 for combining marks
// and control characters, 1 otherwise (Ambiguous characters count as 1, as
// in the terminals of Windows, macOS and Linux with their default fonts).
func runeWidth(r rune) int {
	switch {
	case r < 0x20 || r == 0x7f:
		return 0
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// padRight pads s with spaces to w display columns.
func padRight(s string, w int) string {
	if d := w - displayWidth(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// padLeft right-aligns s in w display columns (numbers).
func padLeft(s string, w int) string {
	if d := w - displayWidth(s); d > 0 {
		return strings.Repeat(" ", d) + s
	}
	return s
}

// truncateLeft keeps the end of s within w columns, marking the cut with
// "…" at the start.
func truncateLeft(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	keep, n := len(s), 0
	for keep > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:keep])
		if n+runeWidth(r) > w-1 {
			break
		}
		n += runeWidth(r)
		keep -= size
	}
	return "…" + s[keep:]
}

// truncateRight keeps the start of s within w columns, marking the cut with
// "…" at the end.
func truncateRight(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	n := 0
	for i, r := range s {
		if n+runeWidth(r) > w-1 {
			return s[:i] + "…"
		}
		n += runeWidth(r)
	}
	return s
}

// shortenPath fits a relative path (`営業\2024\見積\a.xlsx`) into w
// columns, keeping the file name whole and dropping whole folders from the
// middle: `営業\…\見積\a.xlsx` keeps the index name and the folders
// nearest the file that fit, `…\見積\a.xlsx` drops the index name too.
// Only a file name wider than w itself is cut, at its start, so that its
// extension stays.
func shortenPath(p string, w int) string {
	if displayWidth(p) <= w {
		return p
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '\\' || r == '/' })
	if len(segs) < 2 {
		return truncateLeft(p, w)
	}
	sep := "\\"
	if !strings.Contains(p, sep) {
		sep = "/"
	}
	name, dirs := segs[len(segs)-1], segs[:len(segs)-1]
	// tail adds the folders nearest the file while head + … + tail fits.
	fit := func(head string) (string, bool) {
		s := head + "…" + sep + name
		if displayWidth(s) > w {
			return "", false
		}
		tail := name
		for i := len(dirs) - 1; i >= 1; i-- {
			next := dirs[i] + sep + tail
			if displayWidth(head+"…"+sep+next) > w {
				break
			}
			tail = next
		}
		return head + "…" + sep + tail, true
	}
	if s, ok := fit(dirs[0] + sep); ok {
		return s
	}
	if s, ok := fit(""); ok {
		return s
	}
	return truncateLeft(name, w)
}

// wrapLine breaks a line for a terminal of cols columns so that no piece
// is wider than cols (issue 32: the crawl summary, the start and closing
// lines wrapped wherever the terminal cut them). It breaks at a space, or
// between two characters of which one is wide (Japanese has no spaces),
// but never before a closing mark (、。）」 …) nor after an opening one
// (（「), the usual line-breaking rule; a word with no break in it
// (a long path) is cut at the width. Continued pieces keep the line's
// indentation plus two columns.
func wrapLine(s string, cols int) []string {
	if cols < 10 || displayWidth(s) <= cols {
		return []string{s}
	}
	indent := len(s) - len(strings.TrimLeft(s, " "))
	cont := strings.Repeat(" ", min(indent+2, cols/3))
	var out []string
	prefix := ""
	rest := s
	for displayWidth(prefix+rest) > cols {
		limit := cols - displayWidth(prefix)
		cut, resume := breakAt(rest, limit)
		out = append(out, prefix+strings.TrimRight(rest[:cut], " "))
		rest = rest[resume:]
		prefix = cont
	}
	if rest != "" {
		out = append(out, prefix+rest)
	}
	return out
}

// breakAt finds where to end a piece of at most limit columns taken from
// the start of s: the byte offset of the cut and of the next piece's start
// (after a space taken as the break).
func breakAt(s string, limit int) (cut, resume int) {
	w, last, lastResume := 0, -1, -1
	start := len(s) - len(strings.TrimLeft(s, " ")) // no break in the indentation
	var prev rune
	for i, r := range s {
		if i > start {
			switch {
			case r == ' ':
				last, lastResume = i, i+1
			case prev == ' ':
			case (runeWidth(r) == 2 || runeWidth(prev) == 2) && !strings.ContainsRune(noBreakBefore, r) && !strings.ContainsRune(noBreakAfter, prev):
				last, lastResume = i, i
			}
		}
		if w+runeWidth(r) > limit {
			if last > 0 {
				return last, lastResume
			}
			if i == 0 {
				_, size := utf8.DecodeRuneInString(s)
				return size, size
			}
			return i, i
		}
		w += runeWidth(r)
		prev = r
	}
	return len(s), len(s)
}

// Marks a line does not start with, and marks it does not end with.
const (
	noBreakBefore = "、。，．・：；？！）」』】〕〉》”’ー…ぁぃぅぇぉっゃゅょァィゥェォッャュョ),.:;!?]}%"
	noBreakAfter  = "（「『【〔〈《“‘([{"
)
