package textfold

// Nearest is the one rule behind every "〜のことですか？" suggestion (a
// command, subcommand, flag, index name or kind the user mistyped):
// candidates and name are folded (String: case, width, kana) and compared
// by edit distance over runes, where swapping two neighbours costs one edit
// (`inedx` → index). A candidate is offered only within the budget:
// one edit for names up to five runes, two from six on (`folder ad` → add,
// `--index 営業` → 営業部, `--kind exel` → excel), so a short name far from
// everything (`--foo`, two edits from `--not`) gets no suggestion rather
// than a wrong one. Ties go to the candidate that sorts first, so the
// suggestion does not depend on the candidates' order.
func Nearest(name string, candidates []string) (best string, ok bool) {
	n := []rune(String(name))
	if len(n) == 0 {
		return "", false
	}
	budget := 1
	if len(n) >= 6 {
		budget = 2
	}
	bestD := budget + 1
	for _, c := range candidates {
		d := editDistance(n, []rune(String(c)))
		if d == 0 && c == name {
			continue // the name itself is no suggestion
		}
		if d < bestD || d == bestD && ok && c < best {
			best, bestD, ok = c, d, true
		}
	}
	return best, ok
}

// editDistance is the optimal-string-alignment distance of a and b:
// insertions, deletions, substitutions and swaps of two neighbours.
func editDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
