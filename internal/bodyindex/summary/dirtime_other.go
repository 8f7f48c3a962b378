//go:build !linux

package summary

import "os"

// dirMtime returns the modification time (Unix ns) of the folder at path.
func dirMtime(path string) (int64, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return 0, false
	}
	return st.ModTime().UnixNano(), true
}

// dirStatter stats folders below one root.
type dirStatter struct{ root string }

func openDirStatter(root string) *dirStatter { return &dirStatter{root: root} }

// mtime returns the modification time of the folder rel (/-separated, ""
// for the root).
func (s *dirStatter) mtime(rel string) (int64, bool) { return dirMtime(joinPath(s.root, rel)) }

func (s *dirStatter) close() {}
