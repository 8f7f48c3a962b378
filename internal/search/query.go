package search

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search/foldregex"
	"github.com/fumibako/fumibako/internal/search/linedfa"
	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// DefaultMax is the hit cap when Options.Max is 0 (reference/search.md §5).
const DefaultMax = 10000

// Options are what a user sets besides the words: the CLI flags and the
// web UI's controls.
type Options struct {
	// Case makes matching exact (--case); by default case and width are
	// ignored (Ａ = A = a, ｶ = カ).
	Case bool
	// Regex makes every word an RE2 regular expression (--regex).
	Regex bool
	// Kana makes hiragana and katakana equal (--kana).
	Kana bool
	// Indexes limits the search to these index names (--index, ignoring
	// case); empty means every index.
	Indexes []string
	// Folder limits the search to files under this path (--folder):
	// `<index>\<folder>…`, `\` or `/` separated, compared per segment
	// ignoring case; the last segment may be a file name.
	Folder string
	// Names is the file-name filter (--name), reference/search.md §4:
	// `*.xlsx;見積;!*old*`, separators ; or ；, ! or ！ to exclude.
	Names string
	// Kinds limits the search to these kinds of files (--kind): excel,
	// word, powerpoint, text; empty means all.
	Kinds []string
	// NoShapes skips places ending in [図形] or [埋め込みN]; NoComments
	// skips places ending in [コメント] (reference/search.md §4).
	NoShapes, NoComments bool
	// Max is the hit cap: 0 means DefaultMax, a negative value no cap.
	Max int
	// Exclude lists folders left out of the search: the unchecked nodes
	// of the search-target tree (reference/gui.md §4.2, settings
	// searchExcludes). A path is `<index>[\<folder>…]`, compared per
	// segment ignoring case.
	Exclude []Exclude
	// NoNames keeps the words from matching file names (--no-names, the
	// web UI's toggle). By default a file whose path under its index
	// matches the words gives a file-name hit (KindFileName) before its
	// content hits.
	NoNames bool
	// Dates keeps only files whose indexed modification time lies in the
	// range (--since/--until, the web UI's 更新日時 boxes).
	Dates DateRange
}

// Exclude is one left-out folder: with Subfolders the whole tree under
// Path, else only the files directly in it (`（このフォルダ直下のファイル）`
// unchecked; reference/search.md §4).
type Exclude struct {
	Path       string `json:"path"`
	Subfolders bool   `json:"subfolders"`
}

// QueryError is a query that cannot run. Msg is the Japanese text shown to
// the user (CLI exit 2, the web UI under the box); Word and Pos say where
// (0-based word index and rune offset in it, -1 when not about a place).
type QueryError struct {
	Msg   string
	Word  int
	Pos   int
	Cause error
}

func (e *QueryError) Error() string { return e.Msg }
func (e *QueryError) Unwrap() error { return e.Cause }

// Query is a parsed query, safe for concurrent use.
type Query struct {
	// Text is the query as typed (the words joined by spaces), for the
	// export header.
	Text string

	opts    Options
	pos     []*term // every one must match the line
	neg     []*term // none may match the line
	keys    []uint32
	primary *term // the term whose needle or regex scans blocks
	names   *namePattern
	// listing is a query without words but with a file-name filter
	// (--name alone): every file that passes the filters is one
	// file-name hit, and no text is searched.
	listing bool
	kinds   map[extract.Kind]bool
	folder  []string // FoldKey segments
	// exclTree and exclSelf are the excluded folders (FoldKey segments
	// joined by \): the whole tree, or only the files directly in it.
	exclTree, exclSelf map[string]bool
	indexes            map[string]bool
	max                int
}

// term is one word of a query.
type term struct {
	word   string // as typed, without the leading -
	lit    []byte // literal mode: the word in the match space
	regex  *foldregex.Regex
	needle []byte // folded (+kana) text every matching line contains, or nil
	keys   []uint32
	scan   *regexp.Regexp // finds candidates in the match space when needle is nil
	// dfa finds the lines of a regex that may match, in scan's space:
	// in whole blocks instead of scan, or in the lines the needle finds
	// (a short needle is in many lines, each a regexp match); or nil.
	dfa *linedfa.Matcher
}

// SplitWords splits a query typed in one box into words: runs of spaces
// (ASCII or U+3000) separate words, and double quotes keep spaces inside a
// word ("a b"). A quoted word that starts with - is not an exclusion.
func SplitWords(s string) []string {
	var words []string
	var b strings.Builder
	in, quoted, any := false, false, false
	flush := func() {
		if any {
			w := b.String()
			if quoted && strings.HasPrefix(w, "-") {
				w = `\` + w
			}
			words = append(words, w)
		}
		b.Reset()
		quoted, any = false, false
	}
	for _, r := range s {
		switch {
		case r == '"':
			in = !in
			quoted, any = true, true
		case !in && (r == ' ' || r == '\t' || r == '\u3000'):
			flush()
		default:
			b.WriteRune(r)
			any = true
		}
	}
	flush()
	return words
}

// Parse builds a query from words and options. A word starting with - (and
// longer than that) excludes lines; `\-x` searches for `-x`. An empty
// query, a query of exclusions only, an invalid regular expression, an
// unknown kind, a bad cap or a query past the limits (limits.go) give a
// *QueryError. A word repeated is searched once.
func Parse(words []string, opts Options) (*Query, error) {
	if err := checkLimits(words, opts.Names); err != nil {
		return nil, err
	}
	q := &Query{opts: opts, max: opts.Max, Text: typedText(words)}
	if q.max == 0 {
		q.max = DefaultMax
	}
	for i, w := range distinctWords(words) {
		if strings.TrimFunc(w, unicode.IsSpace) == "" {
			continue
		}
		neg := false
		switch {
		case strings.HasPrefix(w, `\-`) && !opts.Regex:
			w = w[1:]
		case len(w) > 1 && w[0] == '-':
			neg, w = true, w[1:]
		}
		if !opts.Case && !opts.Regex && textfold.String(w) == "" {
			// Only variation selectors: nothing to match by default.
			continue
		}
		t, err := newTerm(w, i, opts)
		if err != nil {
			return nil, err
		}
		if neg {
			q.neg = append(q.neg, t)
		} else {
			q.pos = append(q.pos, t)
		}
	}
	if len(q.pos) == 0 {
		if len(q.neg) > 0 {
			return nil, &QueryError{Msg: MsgOnlyExcluded, Word: -1, Pos: -1}
		}
		if strings.Trim(opts.Names, " \t;；!！\u3000") == "" {
			return nil, &QueryError{Msg: MsgEmptyQuery, Word: -1, Pos: -1}
		}
		q.listing = true
	}
	for _, t := range q.pos {
		q.keys = append(q.keys, t.keys...)
		if q.primary == nil || len(t.needle) > len(q.primary.needle) {
			q.primary = t
		}
	}
	slices.Sort(q.keys)
	q.keys = slices.Compact(q.keys)
	var err error
	if q.names, err = parseNames(opts.Names); err != nil {
		return nil, err
	}
	if q.kinds, err = parseKinds(opts.Kinds); err != nil {
		return nil, err
	}
	q.folder = splitPath(opts.Folder)
	for _, x := range opts.Exclude {
		segs := splitPath(x.Path)
		if len(segs) == 0 {
			continue
		}
		key := strings.Join(segs, `\`)
		if x.Subfolders {
			if q.exclTree == nil {
				q.exclTree = map[string]bool{}
			}
			q.exclTree[key] = true
		} else {
			if q.exclSelf == nil {
				q.exclSelf = map[string]bool{}
			}
			q.exclSelf[key] = true
		}
	}
	if len(opts.Indexes) > 0 {
		q.indexes = map[string]bool{}
		for _, n := range opts.Indexes {
			q.indexes[workspace.FoldKey(n)] = true
		}
	}
	if q.max < 0 {
		q.max = 0
	}
	return q, nil
}

// kindNames are the values --kind takes, the candidates of a suggestion.
var kindNames = []string{string(extract.KindExcel), string(extract.KindWord), string(extract.KindPowerPoint), string(extract.KindPDF), string(extract.KindText), string(extract.KindImage)}

// parseKinds parses --kind values (`excel,word`, `、` or spaces too); nil
// when there are none.
func parseKinds(kinds []string) (map[extract.Kind]bool, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	out := map[extract.Kind]bool{}
	for _, k := range kinds {
		for _, k := range strings.FieldsFunc(k, func(r rune) bool { return r == ',' || r == '、' || r == ' ' }) {
			kind := extract.Kind(strings.ToLower(k))
			switch kind {
			case extract.KindExcel, extract.KindWord, extract.KindPowerPoint, extract.KindPDF, extract.KindText, extract.KindImage:
				out[kind] = true
			default:
				msg := fmt.Sprintf(MsgBadKind, k)
				if near, ok := textfold.Nearest(k, kindNames); ok {
					msg += fmt.Sprintf(MsgDidYouMean, near)
				}
				return nil, &QueryError{Msg: msg, Word: -1, Pos: -1}
			}
		}
	}
	return out, nil
}

// newTerm compiles one word.
func newTerm(w string, i int, opts Options) (*term, error) {
	t := &term{word: w}
	if opts.Regex {
		rt, err := foldregex.Compile(w, !opts.Case, opts.Kana)
		if err != nil {
			return nil, regexError(w, i, err)
		}
		t.setRegex(rt)
		// With --case a needle is searched in the folded text but the
		// DFA runs in the original: there the needle alone, as before.
		if t.needle == nil || !opts.Case {
			t.dfa = rt.DFA
		}
		return t, nil
	}
	if !opts.Case {
		pieces := textfold.Pattern(w)
		if len(pieces) > 1 || len(pieces) == 1 && len(pieces[0]) > 1 {
			// Some character may be spelled otherwise in the line (霞が関,
			// 霞ヶ関): a pattern of alternatives in the folded space.
			rt, err := foldregex.CompilePieces(pieces, opts.Kana)
			if err != nil {
				return nil, &QueryError{Msg: fmt.Sprintf(MsgBadRegexWord, i+1, w), Word: i, Pos: 0, Cause: err}
			}
			t.setRegex(rt)
			t.dfa = rt.DFA
			return t, nil
		}
		folded := ""
		if len(pieces) == 1 {
			folded = pieces[0][0] // the word's fold
		}
		if opts.Kana {
			folded = textfold.Kana(folded)
		}
		t.lit = []byte(folded)
		t.needle = t.lit
		t.keys = textfold.QueryKeys(folded)
		return t, nil
	}
	t.lit = []byte(w)
	if opts.Kana {
		t.lit = []byte(textfold.Kana(w))
	}
	// The folded copy prefilters an exact match only with CaseNeedle.
	if n := textfold.CaseNeedle(w); n != "" {
		if opts.Kana {
			n = textfold.Kana(n)
		}
		t.needle = []byte(n)
		t.keys = textfold.QueryKeys(n)
	} else {
		t.scan = regexp.MustCompile(regexp.QuoteMeta(string(t.lit)))
	}
	return t, nil
}

// setRegex makes the term match by rt: its required literals give the
// n-gram keys, and the longest of them is the needle of the first scan.
func (t *term) setRegex(rt *foldregex.Regex) {
	t.regex, t.scan = rt, rt.Re
	for _, r := range rt.Required {
		t.keys = append(t.keys, textfold.QueryKeys(r)...)
		if len(r) > len(t.needle) {
			t.needle = []byte(r)
		}
	}
}

// find reports whether the term matches text (in the match space).
func (t *term) find(text []byte) bool {
	if t.regex != nil {
		return t.regex.Re.Match(text)
	}
	return bytes.Contains(text, t.lit)
}

// all appends the non-empty matches of the term in text.
func (t *term) all(text []byte, out [][2]int) [][2]int {
	if t.regex != nil {
		for _, m := range t.regex.Re.FindAllIndex(text, -1) {
			if m[1] > m[0] {
				out = append(out, [2]int{m[0], m[1]})
			}
		}
		return out
	}
	if len(t.lit) == 0 {
		return out
	}
	for off := 0; ; {
		i := bytes.Index(text[off:], t.lit)
		if i < 0 {
			return out
		}
		out = append(out, [2]int{off + i, off + i + len(t.lit)})
		off += i + len(t.lit)
	}
}

// splitPath splits a --folder value into FoldKey segments.
func splitPath(p string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(p, func(r rune) bool { return r == '\\' || r == '/' }) {
		out = append(out, workspace.FoldKey(s))
	}
	return out
}

// Listing reports whether the query lists files by name only (--name
// without words).
func (q *Query) Listing() bool { return q.listing }

// searchesNames reports whether file names can give hits.
func (q *Query) searchesNames() bool { return q.listing || !q.opts.NoNames }

// Max returns the hit cap (0 = none).
func (q *Query) Max() int { return q.max }

// Options returns the options the query was parsed with.
func (q *Query) Options() Options { return q.opts }
