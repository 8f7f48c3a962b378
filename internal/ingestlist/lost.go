package ingestlist

import (
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// A list that Excel saved again as Shift_JIS (cp932, "Text (Tab
// delimited)" on a Japanese Windows) holds `?` for every character cp932
// cannot hold: an emoji, 𠮷, Hangul, é (issue 36). `?` is illegal in file
// names and the crawl takes no name with it, so such a row can belong to
// no file as it reads. Instead of rejecting it (which forgot the file's
// state: a 失敗 file was ingested again), the reader keeps it in
// List.Lost, and the indexer looks for the one file it can be: its path
// with each `?` standing for the lost characters (MatchLost), and the same
// size and modification time. Found, the row is the file's (Resolve);
// otherwise the run stops and names the lines, as for a list that cannot
// be read.

// LostRow is a row whose 相対パス lost characters (List.Lost).
type LostRow struct {
	Row   Row // as read: RelPath holds `?` where characters were lost
	Line  int // 1-based line number in the file
	Index int // position among the data lines (Line.Index)
}

// lostChars reports whether rel has `?` and would be a valid path if
// they were characters.
func lostChars(rel string) bool {
	return strings.Contains(rel, "?") && ValidRelPath(strings.ReplaceAll(rel, "?", "_"))
}

// MatchLost reports whether name (a path or a name) can be what pattern
// became when its characters outside the encoding were replaced by `?`:
// compared case-insensitively (workspace.FoldKey), each `?` stands for one
// character, and `??` also for one character outside the BMP (a converter
// that replaces each UTF-16 unit of a surrogate pair); a `?` never stands
// for the separator `\`.
func MatchLost(pattern, name string) bool {
	p := []rune(workspace.FoldKey(pattern))
	n := []rune(workspace.FoldKey(name))
	// ok[i][j]: p[i:] matches n[j:]; filled from the ends.
	w := len(n) + 1
	ok := make([]bool, (len(p)+1)*w)
	ok[len(p)*w+len(n)] = true
	for i := len(p) - 1; i >= 0; i-- {
		for j := len(n) - 1; j >= 0; j-- {
			switch {
			case p[i] != '?':
				ok[i*w+j] = p[i] == n[j] && ok[(i+1)*w+j+1]
			case n[j] == '\\':
			default:
				ok[i*w+j] = ok[(i+1)*w+j+1] ||
					n[j] > 0xFFFF && i+1 < len(p) && p[i+1] == '?' && ok[(i+2)*w+j+1]
			}
		}
	}
	return ok[0]
}

// SameFile reports whether the lost row can be the file of that size and
// modification time (FormatFileTime), as the plan compares them.
func (lr LostRow) SameFile(size int64, updated string) bool {
	return lr.Row.Size == size && lr.Row.SameUpdated(updated)
}

// Resolve gives the lost row lr the path of the file it was found to be
// and puts it among the rows, as if the line had read so: the later line
// of a path wins.
func (l *List) Resolve(lr LostRow, relPath string) {
	row := lr.Row
	row.RelPath = relPath
	if l.keys == nil {
		l.keys = map[string]int{}
		for i, r := range l.Rows {
			l.keys[r.Key()] = i
		}
	}
	key := row.Key()
	i, ok := l.keys[key]
	switch {
	case !ok:
		i = len(l.Rows)
		l.keys[key] = i
		l.Rows = append(l.Rows, row)
	case lr.Index > l.lastLine(i):
		l.Rows[i] = row
	}
	at, _ := slices.BinarySearchFunc(l.Lines, lr.Index, func(x Line, idx int) int { return x.Index - idx })
	l.Lines = slices.Insert(l.Lines, at, Line{Index: lr.Index, Row: i})
}

// lastLine is the position of the last data line of row i (-1: none).
func (l *List) lastLine(i int) int {
	last := -1
	for _, ln := range l.Lines {
		if ln.Row == i {
			last = max(last, ln.Index)
		}
	}
	return last
}
