package indexer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Lines of the ingest list that the reader passed over, and rows whose
// names lost characters to a re-save in Shift_JIS (issue 36): every
// skipped line is logged with its number, and a lost row is given to the
// one file it can be, or the run stops naming the lines (as for a list
// that cannot be read; --reset-list moves the list aside and starts over).
// A 失敗 state is never forgotten silently.
const (
	msgSkipsMore = "取り込み一覧のほか %d 行も読み飛ばしました。"
	msgIgnored   = "取り込み一覧の %d 行は、形式が正しくないため読み飛ばしました。"
	msgLostFound = "取り込み一覧の %d 行目（%s）は、名前の一部の文字が「?」になっていたため、更新日時とサイズが同じ %s の行として読みました。"
	msgListLost  = "取り込み一覧（%s）の %s 行目は、ファイル名の一部の文字が「?」になっていて（Shift_JIS など、その文字を表せない形式で保存し直されたため）、どのファイルの行か決められません。"
	// lostLinesShown is how many line numbers msgListLost names.
	lostLinesShown = 20
	// lostDirBudget bounds the folder entries read to find lost rows.
	lostDirBudget = 200000
)

// logSkips logs the lines the reader passed over, each with its number.
func (r *run) logSkips(l *ingestlist.List) {
	if l.Rejected > 0 {
		r.logf(Warn, msgRejected, l.Rejected)
	}
	if l.Ignored > 0 {
		r.logf(Warn, msgIgnored, l.Ignored)
	}
	for _, s := range l.Skips {
		r.logf(Warn, "  %s", s)
	}
	if l.MoreSkips > 0 {
		r.logf(Warn, "  "+msgSkipsMore, l.MoreSkips)
	}
}

// resolveLost gives each lost row of l the file it can only be: under the
// root its index name matches, a path that MatchLost accepts, with the
// row's size and modification time, claimed by no other lost row. It
// returns the lines that stay unresolved, in file order.
func (r *run) resolveLost(l *ingestlist.List) []int {
	type find struct {
		lost ingestlist.LostRow
		rel  string // "" when not exactly one file
	}
	finds := make([]find, len(l.Lost))
	claims := map[string]int{}
	budget := lostDirBudget
	for i, lr := range l.Lost {
		finds[i].lost = lr
		var found []string
		idx, rest := ingestlist.SplitRelPath(lr.Row.RelPath)
		for _, root := range r.opt.Settings.Roots {
			if !ingestlist.MatchLost(idx, root.Name) {
				continue
			}
			for _, p := range findLost(root.Path, strings.Split(rest, `\`), &budget) {
				info, err := os.Stat(filepath.Join(root.Path, p))
				if err == nil && info.Mode().IsRegular() && lr.SameFile(info.Size(), ingestlist.FormatFileTime(info.ModTime())) {
					found = append(found, ingestlist.MakeRelPath(root.Name, p))
				}
			}
		}
		if len(found) == 1 {
			finds[i].rel = found[0]
			claims[workspace.FoldKey(found[0])]++
		}
	}
	var unresolved []int
	for _, f := range finds {
		if f.rel == "" || claims[workspace.FoldKey(f.rel)] > 1 {
			unresolved = append(unresolved, f.lost.Line)
			continue
		}
		l.Resolve(f.lost, f.rel)
		r.logf(Warn, msgLostFound, f.lost.Line, f.lost.Row.RelPath, f.rel)
	}
	return unresolved
}

// findLost returns the paths under dir (OS separators) that the segments
// name, a segment with `?` matching any entry MatchLost accepts. It reads
// at most *budget folder entries in all.
func findLost(dir string, segs []string, budget *int) []string {
	if len(segs) == 0 || segs[0] == "" {
		return nil
	}
	names := []string{segs[0]}
	if strings.Contains(segs[0], "?") {
		names = nil
		entries, _ := os.ReadDir(dir)
		if *budget -= len(entries); *budget < 0 {
			return nil
		}
		for _, e := range entries {
			if ingestlist.MatchLost(segs[0], e.Name()) {
				names = append(names, e.Name())
			}
		}
	}
	if len(segs) == 1 {
		return names
	}
	var out []string
	for _, n := range names {
		for _, p := range findLost(filepath.Join(dir, n), segs[1:], budget) {
			out = append(out, filepath.Join(n, p))
		}
	}
	return out
}

// lostLines names the line numbers for msgListLost: 3、7、12, the first
// lostLinesShown of them and how many more.
func lostLines(lines []int) string {
	var parts []string
	for i, n := range lines {
		if i == lostLinesShown {
			return strings.Join(parts, "、") + "（ほか " + strconv.Itoa(len(lines)-i) + " 行）"
		}
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, "、")
}
