package search_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// fragments build random lines that exercise folding: case, full and half
// width, kana with and without sound marks, TAB and U+2028.
var fragments = []string{"a", "A", "ａ", "Ａ", "b", "B", "ｂ", "か", "カ", "ｶ", "が", "ガ", "ｶﾞ", "ー", "ｰ", " ", "\t", "見", "積", "確", "定", "\u2028", "1", "１", "-", "x", "X", "ぱ", "ﾊﾟ", "パ", "ケ", "ヶ", "ヵ", "髙", "高", "\u3000", "サーバ", "\ufe00"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

// randomCorpus makes files in two indexes and nested folders, sized so
// that parts hold several blocks.
func randomCorpus(r *rand.Rand) []corpusFile {
	folders := []string{`A`, `A\sub`, `A\sub\深い`, `A\Sub2`, `b`, `b\x`}
	exts := []string{".xlsx", ".docx", ".pptx", ".txt"}
	var files []corpusFile
	for _, folder := range folders {
		for i := 0; i < 2+r.IntN(5); i++ {
			ext := exts[r.IntN(len(exts))]
			var places []extract.Place
			names := map[string][]string{
				".xlsx": {"売上", "売上[図形]", "Sheet2", "Sheet2[コメント]", "売上[ヘッダー・フッター]"},
				".docx": {"ページ001", "ページ002", "ページ002[図形]", "脚注"},
				".pptx": {"スライド001", "スライド001_ノート", "スライド002[埋め込み1]"},
				".txt":  {"本文"},
			}[ext]
			for _, n := range names {
				if r.IntN(3) == 0 {
					continue
				}
				var lines []string
				for l := 0; l < 1+r.IntN(200); l++ {
					lines = append(lines, randomText(r, r.IntN(16)))
				}
				for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
					lines = lines[:len(lines)-1]
				}
				if len(lines) > 0 {
					places = append(places, extract.Place{Name: n, Lines: lines})
				}
			}
			files = append(files, corpusFile{path: fmt.Sprintf(`%s\f%d-%s%s`, folder, i, randomText(r, 1), ext), places: places})
		}
	}
	// drop duplicate names (case-insensitive)
	seen := map[string]bool{}
	var out []corpusFile
	for _, f := range files {
		if k := workspace.FoldKey(f.path); !seen[k] && !strings.ContainsAny(content.BaseOf(f.path), "\t\u2028 ") {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// linear is the reference: a scan of every line of the same files.
type linear struct {
	files []corpusFile // in search order
}

func newLinear(files []corpusFile) *linear {
	files = slices.Clone(files)
	key := func(p string) []string {
		segs := strings.Split(p, `\`)
		return segs
	}
	slices.SortFunc(files, func(a, b corpusFile) int {
		sa, sb := key(a.path), key(b.path)
		da, db := sa[:len(sa)-1], sb[:len(sb)-1]
		for i := 0; i < min(len(da), len(db)); i++ {
			if c := cmpName(da[i], db[i]); c != 0 {
				return c
			}
		}
		if len(da) != len(db) {
			return len(da) - len(db)
		}
		return cmpName(sa[len(sa)-1], sb[len(sb)-1])
	})
	return &linear{files: files}
}

func cmpName(a, b string) int {
	if c := strings.Compare(workspace.FoldKey(a), workspace.FoldKey(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

type linQuery struct {
	pos, neg   []string
	regex      bool
	opts       search.Options
	cellPrefix func(ext, place string) bool
}

func (q linQuery) space(s string) string {
	if !q.opts.Case {
		s = textfold.String(s)
	}
	if q.opts.Kana {
		s = textfold.Kana(s)
	}
	return s
}

func (q linQuery) has(region, w string) bool {
	if q.regex {
		if q.opts.Kana {
			w = textfold.Kana(w)
		}
		return regexp.MustCompile(w).MatchString(q.space(region))
	}
	if !q.opts.Case {
		// The word's pattern: its fold, where a character may be spelled
		// otherwise in the line (textfold.Pattern).
		return regexp.MustCompile(textfold.Regexp(textfold.Pattern(w), q.opts.Kana)).MatchString(q.space(region))
	}
	return strings.Contains(q.space(region), q.space(w))
}

func (l *linear) run(q linQuery) []string {
	var out []string
	for _, f := range l.files {
		base := content.BaseOf(f.path)
		kind, _ := extract.KindOf(base)
		if len(q.opts.Kinds) > 0 && !slices.Contains(q.opts.Kinds, string(kind)) {
			continue
		}
		if !q.opts.NoNames {
			_, rel, _ := strings.Cut(f.path, `\`)
			ok := true
			for _, w := range q.pos {
				ok = ok && q.has(rel, w)
			}
			for _, w := range q.neg {
				ok = ok && !q.has(rel, w)
			}
			if ok {
				out = append(out, fmt.Sprintf("%s|%s|%d|%s", f.path, "", 0, rel))
			}
		}
		for _, p := range f.places {
			_, obj := content.SplitKind(p.Name)
			if q.opts.NoShapes && (obj == "図形" || strings.HasPrefix(obj, "埋め込み")) || q.opts.NoComments && obj == "コメント" {
				continue
			}
			prefixed := kind == extract.KindExcel && (obj == "図形" || obj == "コメント")
			for i, line := range p.Lines {
				region := line
				if prefixed {
					t := strings.IndexByte(line, '\t')
					if t < 0 {
						continue
					}
					region = line[t+1:]
				}
				ok := true
				for _, w := range q.pos {
					ok = ok && q.has(region, w)
				}
				for _, w := range q.neg {
					ok = ok && !q.has(region, w)
				}
				if ok {
					out = append(out, fmt.Sprintf("%s|%s|%d|%s", f.path, p.Name, i+1, line))
				}
			}
		}
	}
	return out
}

func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(diffSeed(), 11))
	files := randomCorpus(r)
	root, ix := buildCorpus(t, files)
	lin := newLinear(files)
	for n := 0; n < 300; n++ {
		q := linQuery{opts: search.Options{Case: r.IntN(4) == 0, Kana: r.IntN(3) == 0, NoShapes: r.IntN(5) == 0, NoComments: r.IntN(5) == 0, NoNames: r.IntN(4) == 0}}
		if r.IntN(5) == 0 {
			q.opts.Kinds = []string{[]string{"excel", "word", "powerpoint", "text"}[r.IntN(4)]}
		}
		var words []string
		if r.IntN(6) == 0 {
			// regex: two folded literals with anything between
			a, b := textfold.String(randomText(r, 1+r.IntN(2))), textfold.String(randomText(r, 1))
			q.opts.Case = false
			q.regex = true
			q.opts.Regex = true
			w := regexp.QuoteMeta(a) + ".*" + regexp.QuoteMeta(b)
			if r.IntN(2) == 0 {
				w = "^" + w
			} else if strings.HasPrefix(w, "-") {
				w = `\` + w
			}
			q.pos = []string{w}
			words = []string{w}
		} else {
			for k := 0; k < 1+r.IntN(2); k++ {
				w := strings.TrimSpace(randomText(r, 1+r.IntN(3)))
				if w == "" || strings.ContainsAny(w, "\t") || strings.HasPrefix(w, "-") || textfold.String(w) == "" {
					continue
				}
				q.pos = append(q.pos, w)
				words = append(words, w)
			}
			if len(q.pos) == 0 {
				continue
			}
			if r.IntN(3) == 0 {
				w := strings.TrimSpace(randomText(r, 1))
				if w != "" && w != "-" && !strings.ContainsAny(w, "\t") && textfold.String(w) != "" {
					q.neg = append(q.neg, w)
					words = append(words, "-"+w)
				}
			}
		}
		want := lin.run(q)
		hits, st, err := runQuery(t, root, ix, words, q.opts)
		if err != nil {
			t.Fatalf("%q %+v: %v", words, q.opts, err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, fmt.Sprintf("%s|%s|%d|%s", h.Path(), h.Place, h.Row, h.Text))
			if !q.regex {
				for _, m := range h.Matches {
					// The match's text as the line folds it (in context).
					mt := h.Text[m[0]:m[1]]
					if !q.opts.Case {
						folded, starts := textfold.Map(h.Text)
						var b []byte
						for i := range len(folded) {
							if starts[i] >= m[0] && starts[i] < m[1] {
								b = append(b, folded[i])
							}
						}
						mt = string(b)
					}
					if q.opts.Kana {
						mt = textfold.Kana(mt)
					}
					found := false
					for _, w := range q.pos {
						found = found || q.has(mt, w)
					}
					if !found {
						t.Fatalf("%q %+v: match %q in %q is no word", words, q.opts, h.Text[m[0]:m[1]], h.Text)
					}
				}
				if len(h.Matches) == 0 {
					t.Fatalf("%q %+v: hit without matches: %q", words, q.opts, h.Text)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("query %q %+v:\n got %d hits\nwant %d hits\nfirst difference: %s", words, q.opts, len(got), len(want), firstDiff(got, want))
		}
		if len(st.Problems) > 0 {
			t.Fatalf("problems: %v", st.Problems)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("#%d got %q want %q", i, x, y)
		}
	}
	return ""
}

// diffSeed lets a run try another corpus: FUMIBAKO_DIFF_SEED=n.
func diffSeed() uint64 {
	var n uint64 = 7
	fmt.Sscan(os.Getenv("FUMIBAKO_DIFF_SEED"), &n)
	return n
}
