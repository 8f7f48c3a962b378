package source

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// segments splits the part of an index path after the index name
// (`2024\見積\a.xlsx`, `\` on every OS) into its segments.
func segments(rest string) []string {
	var out []string
	for _, s := range strings.Split(rest, `\`) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// isFile reports whether p is a regular file (links followed).
func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Locate returns the file rest under the source folder root, or, when it
// is not there, under another spelling of the same share (a mapped drive
// ↔ its UNC path; reference/search.md §9 "first try aliases"). root is
// the folder it was found under; ok is false when it is in neither.
func Locate(folder, rest string) (path, root string, ok bool) {
	segs := segments(rest)
	for _, r := range append([]string{folder}, workspace.ShareAliases(folder)...) {
		p := filepath.Join(append([]string{r}, segs...)...)
		if isFile(p) {
			return p, r, true
		}
	}
	return "", "", false
}

// Candidate is a path tried under a folder the user picked, with the
// source folder of the index that finding the file there implies.
type Candidate struct {
	Path, Root string
}

// Candidates lists where a file whose relative path is rest is looked for
// under a picked folder, in the reference's order: for `2024\見積\a.xlsx`,
// `<picked>\2024\見積\a.xlsx`, `<picked>\見積\a.xlsx`, `<picked>\a.xlsx`
// (reference/search.md §9). Finding it with k leading folders left out
// means the picked folder stands for the root's folder k levels down, so
// the implied root is the picked folder's k-th parent: the other files of
// the index open from there when only the root moved (its subfolders kept
// their names), and the user is asked again otherwise.
func Candidates(picked, rest string) []Candidate {
	segs := segments(rest)
	if len(segs) == 0 {
		return nil
	}
	dirs, file := segs[:len(segs)-1], segs[len(segs)-1]
	var out []Candidate
	for k := 0; k <= len(dirs); k++ {
		p := filepath.Join(append(append([]string{picked}, dirs[k:]...), file)...)
		out = append(out, Candidate{Path: p, Root: parentN(picked, k)})
	}
	return out
}

// parentN is the k-th parent of dir (dir itself at the top of a drive or
// share).
func parentN(dir string, k int) string {
	for ; k > 0; k-- {
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return dir
}

// Repoint looks for the file rest under a picked folder (and the other
// spellings of its share) in Candidates' order and returns the first that
// exists.
func Repoint(picked, rest string) (Candidate, bool) {
	for _, dir := range append([]string{picked}, workspace.ShareAliases(picked)...) {
		for _, c := range Candidates(dir, rest) {
			if isFile(c.Path) {
				return c, true
			}
		}
	}
	return Candidate{}, false
}

// macroExtensions are the macro-capable formats that a received index's
// hit opens read-only only (reference/search.md §9).
var macroExtensions = map[string]bool{".xlsm": true, ".xlsb": true, ".xls": true, ".docm": true, ".doc": true, ".pptm": true, ".ppt": true}

// MacroCapable reports whether a file name is of a macro-capable format.
func MacroCapable(name string) bool {
	return macroExtensions[strings.ToLower(filepath.Ext(name))]
}

// ReadOnlyOnly reports whether a file of the folder's index may only be
// opened read-only: a macro-capable file of a received index.
func (f Folder) ReadOnlyOnly(name string) bool {
	return f.Received && MacroCapable(name)
}
