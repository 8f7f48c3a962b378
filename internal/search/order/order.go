// Package order orders a search's result list by file (CLI --sort; issue
// 18, issue 31): by path in natural order (第2回 before 第10回), by the
// files' modification time as indexed, or by their number of hits,
// keeping each file's hits together and in their search order. The
// search itself emits hits in path order (package search's doc comment,
// "Order, cap, streaming"); this is the reordering a front end asks for
// once it has them all.
package order

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Orders of a result list (CLI --sort, the web UI's sort box; issue 18,
// issue 31). Hits stay grouped by file; ties keep the path order.
const (
	// ByPath is the default: grouped by index, then by folder (a folder
	// before its sub-folders) and file name, all in natural order
	// (Natural: 第1回 < 第2回 < 第10回).
	ByPath = "path"
	// ByDate puts the files modified last (as indexed) first; files
	// whose time is unknown come last.
	ByDate = "date"
	// ByHits puts the files with the most hits first.
	ByHits = "hits"
)

// Valid reports whether s names an order ("" is ByPath).
func Valid(s string) bool {
	switch s {
	case "", ByPath, ByDate, ByHits:
		return true
	}
	return false
}

// Files reorders hits by file in the given order (ByPath when ""),
// keeping each file's hits together and in their search order (file-name
// hit first, then places and lines).
func Files(hits []search.Hit, order string) {
	type group struct {
		hits []search.Hit
		mod  time.Time
		segs []string // index, folders, file name
	}
	var groups []*group
	byFile := map[string]*group{}
	for _, h := range hits {
		key := h.Index + "\x00" + h.RelPath
		g := byFile[key]
		if g == nil {
			g = &group{mod: h.Modified, segs: append([]string{h.Index}, strings.Split(h.RelPath, `\`)...)}
			byFile[key] = g
			groups = append(groups, g)
		}
		g.hits = append(g.hits, h)
	}
	byPath := func(a, b *group) int { return comparePathSegments(a.segs, b.segs) }
	cmp := byPath
	switch order {
	case ByDate:
		cmp = func(a, b *group) int {
			switch {
			case a.mod.Equal(b.mod):
				return byPath(a, b)
			case a.mod.IsZero():
				return 1
			case b.mod.IsZero():
				return -1
			case a.mod.After(b.mod):
				return -1
			}
			return 1
		}
	case ByHits:
		cmp = func(a, b *group) int {
			if len(a.hits) != len(b.hits) {
				return len(b.hits) - len(a.hits)
			}
			return byPath(a, b)
		}
	}
	slices.SortStableFunc(groups, cmp)
	out := hits[:0:0]
	for _, g := range groups {
		out = append(out, g.hits...)
	}
	copy(hits, out)
}

// comparePathSegments orders two files given as [index, folders…, name]:
// index, then folder by folder, a folder's own files before those of its
// sub-folders, then the file name, each in natural order.
func comparePathSegments(a, b []string) int {
	da, db := a[:len(a)-1], b[:len(b)-1]
	for i := 0; i < min(len(da), len(db)); i++ {
		if c := Natural(da[i], db[i]); c != 0 {
			return c
		}
	}
	if len(da) != len(db) {
		return len(da) - len(db)
	}
	return Natural(a[len(a)-1], b[len(b)-1])
}

// Natural orders names as people count (issue 31): runs of digits,
// ASCII or full-width (０–９), compare by their value, so 第2回 < 第10回
// and 第２回 = 第2回 in place; other characters compare ignoring case
// (workspace.FoldKey). Names equal so far are ordered by fewer leading
// zeros, then by their bytes, so the order is total.
func Natural(a, b string) int {
	fa, fb := workspace.FoldKey(a), workspace.FoldKey(b)
	zeros := 0
	for fa != "" && fb != "" {
		ra, na := utf8.DecodeRuneInString(fa)
		rb, nb := utf8.DecodeRuneInString(fb)
		if digitValue(ra) >= 0 && digitValue(rb) >= 0 {
			va, restA, za := digitRun(fa)
			vb, restB, zb := digitRun(fb)
			if c := compareDigits(va, vb); c != 0 {
				return c
			}
			if zeros == 0 {
				zeros = za - zb
			}
			fa, fb = restA, restB
			continue
		}
		if ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		fa, fb = fa[na:], fb[nb:]
	}
	switch {
	case fa != "":
		return 1
	case fb != "":
		return -1
	case zeros != 0:
		return zeros
	}
	return strings.Compare(a, b)
}

// digitValue is the value of an ASCII or full-width digit, -1 otherwise.
func digitValue(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= '０' && r <= '９':
		return int(r - '０')
	}
	return -1
}

// digitRun reads the digits at the start of s: their values without
// leading zeros (as ASCII), the rest of s and how many zeros it dropped.
func digitRun(s string) (digits, rest string, zeros int) {
	var b []byte
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		v := digitValue(r)
		if v < 0 {
			break
		}
		if v == 0 && len(b) == 0 {
			zeros++
		} else {
			b = append(b, byte('0'+v))
		}
		s = s[n:]
	}
	return string(b), s, zeros
}

// compareDigits compares two digit strings without leading zeros by value.
func compareDigits(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
