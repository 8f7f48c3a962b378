package search

import (
	"fmt"
	"strings"
	"unicode"
)

// Limits of one query (issue 36 item 5: 200,000 words took the server to
// 5 GiB and 13 s). Each word is compiled, and every line is matched
// against every word, so the cost grows with their number; a query past a
// limit is refused before anything is compiled. They are far above what a
// person types: the web UI's box and a command line hold a few words.
const (
	// MaxWords is the most distinct words of a query (exclusions
	// included): a word repeated is one word.
	MaxWords = 64
	// MaxQueryBytes is the most bytes of the words together (UTF-8: a
	// Japanese character is 3 bytes), repeats included, and of the
	// file-name filter (Options.Names).
	MaxQueryBytes = 4096
)

// checkLimits refuses words and a file-name filter past the limits with
// a *QueryError. It counts the bytes first, so that a huge query costs
// one pass over it and no allocation.
func checkLimits(words []string, names string) error {
	n := 0
	for _, w := range words {
		if n += len(w); n > MaxQueryBytes {
			return &QueryError{Msg: fmt.Sprintf(MsgQueryTooLong, Thousands(MaxQueryBytes)), Word: -1, Pos: -1}
		}
	}
	if len(names) > MaxQueryBytes {
		return &QueryError{Msg: fmt.Sprintf(MsgNamesTooLong, Thousands(MaxQueryBytes)), Word: -1, Pos: -1}
	}
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] || strings.TrimFunc(w, unicode.IsSpace) == "" {
			continue
		}
		if seen[w] = true; len(seen) > MaxWords {
			return &QueryError{Msg: fmt.Sprintf(MsgTooManyWords, MaxWords), Word: -1, Pos: -1}
		}
	}
	return nil
}

// distinctWords returns a copy of words with every repeat of an earlier
// word blanked, so that Parse skips it while the others keep their
// positions (which errors name): a word given twice is searched once, an
// exclusion given twice is one exclusion. A repeat is the same string as
// typed: -x and x, or x and \-x, are different words.
func distinctWords(words []string) []string {
	seen := make(map[string]bool, len(words))
	out := make([]string, len(words))
	for i, w := range words {
		if !seen[w] {
			seen[w] = true
			out[i] = w
		}
	}
	return out
}

// typedText is Query.Text: the words as typed, repeats included, joined by
// spaces.
func typedText(words []string) string {
	var shown []string
	for _, w := range words {
		if strings.TrimSpace(w) != "" {
			shown = append(shown, w)
		}
	}
	return strings.Join(shown, " ")
}
