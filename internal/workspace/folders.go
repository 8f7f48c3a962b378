package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// FolderError is a refused folder operation. Error is the Japanese message
// shown to the user; Unwrap gives the English cause where there is one.
type FolderError struct {
	Msg   string
	Cause error
	// Missing is the index name the operation named that is not
	// registered, and Known the registered ones, so that the CLI can
	// suggest the nearest (issue 32).
	Missing string
	Known   []string
}

func (e *FolderError) Error() string { return e.Msg }
func (e *FolderError) Unwrap() error { return e.Cause }

func refuse(format string, a ...any) error {
	return &FolderError{Msg: fmt.Sprintf(format, a...)}
}

// notFound refuses an operation on an index name that is not registered.
func (s *Settings) notFound(name string) error {
	known := make([]string, 0, len(s.Roots))
	for _, r := range s.Roots {
		known = append(known, r.Name)
	}
	return &FolderError{Msg: fmt.Sprintf(msgNotFound, name), Missing: name, Known: known}
}

// Messages of the folder commands (reference/gui.md §2.4 where it gives one).
const (
	msgNameEmpty   = "インデックス名を入力してください。"
	msgNameIllegal = "インデックス名「%s」は使えません（\\ / : * ? \" < > | や制御文字、最後の . や空白、CON・PRN・AUX・NUL・COM1～9・LPT1～9 は使えません。255 文字まで）。"
	msgNameTaken   = "インデックス名「%s」は既に使われています。"
	msgNotFound    = "インデックス「%s」はありません。"
	msgNoPath      = "元のフォルダを指定してください。"
	msgPathMissing = "フォルダが見つかりません: %s"
	msgPathAbsent  = "フォルダが今は見つかりません: %s（登録はしました。ネットワークのフォルダなら、つながっているときのインデックス作成で取り込みます。つながるまでは取り込まずに飛ばします）"
	msgNotFolder   = "フォルダではありません: %s"
	msgRegistered  = "「%s」のインデックス「%s」が既にあります。"
	msgNested      = "「%s」は、登録済みのインデックス「%s」（%s）と重なるため登録できません（登録済みのフォルダの中のフォルダや、それを含むフォルダは登録できません）。"
	msgInWorkspace = "「%s」は、ワークスペース（%s）を含むか、その中にあるため登録できません（fumibako が作ったファイルを取り込まないため）。"
)

// CheckNewName validates a name chosen for a new or renamed index.
// taken reports names already used (case-insensitive).
func CheckNewName(name string, taken func(string) bool) error {
	if strings.TrimSpace(name) == "" {
		return refuse(msgNameEmpty)
	}
	if !TestIndexName(name) || strings.TrimSpace(name) != name {
		return refuse(msgNameIllegal, name)
	}
	if taken(name) {
		return refuse(msgNameTaken, name)
	}
	return nil
}

// KnownIndex is an index that the ingest list's folder lines (or the
// content folder) know: its name and, where known, the path of its root.
type KnownIndex struct {
	Name, Path string
}

// AddRoot registers path as a new crawl root and returns it. name may be
// empty: a known index of the same path whose root is not in the settings
// (its registration was lost: a broken settings file) gives its name back,
// so its index is used again (issue 15); else the folder's own name is
// used, made safe with ToSafeFileName and unique with (2), (3)… against the
// settings and known (names used earlier). A pending removal of the name
// is cancelled.
//
// It refuses a path that does not exist, is not a folder, is already
// registered, overlaps another root, or contains or lies inside the
// workspace.
func (s *Settings) AddRoot(path, name, workspaceRoot string, known []KnownIndex) (Root, error) {
	if strings.TrimSpace(path) == "" {
		return Root{}, refuse(msgNoPath)
	}
	abs, err := filepath.Abs(strings.TrimSpace(path))
	if err != nil {
		return Root{}, &FolderError{Msg: fmt.Sprintf(msgPathMissing, path), Cause: err}
	}
	abs = filepath.Clean(abs)
	// A folder that is not there now is accepted (a network drive not
	// connected yet; reference/gui.md §2.4): the run skips it with its
	// missing-root line until it can be reached. FolderWarning says so.
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		return Root{}, refuse(msgNotFolder, abs)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	ws := workspaceRoot
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	if IsWithin(abs, ws) || IsWithin(ws, abs) {
		return Root{}, refuse(msgInWorkspace, abs, workspaceRoot)
	}
	if err := s.checkOverlap(abs); err != nil {
		return Root{}, err
	}
	taken := func(n string) bool {
		_, _, ok := s.Root(n)
		return ok || slices.ContainsFunc(known, func(k KnownIndex) bool { return FoldKey(k.Name) == FoldKey(n) })
	}
	if name == "" {
		for _, k := range known {
			if _, _, inUse := s.Root(k.Name); !inUse && k.Path != "" && TestIndexName(k.Name) && SamePlace(realPath(k.Path), abs) {
				name = k.Name
				break
			}
		}
	}
	if name == "" {
		name = defaultName(abs, taken)
	} else {
		onlySettings := func(n string) bool { _, _, ok := s.Root(n); return ok }
		if err := CheckNewName(name, onlySettings); err != nil {
			return Root{}, err
		}
	}
	r := Root{Name: name, Path: abs}
	s.Roots = append(s.Roots, r)
	s.unremove(name)
	s.dropSource(name)
	return r, nil
}

// FolderWarning is the warning shown when a folder just registered cannot
// be reached now (issue 30): "" when it can.
func FolderWarning(path string) string {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return ""
	case err == nil:
		return fmt.Sprintf(msgNotFolder, path)
	}
	return fmt.Sprintf(msgPathAbsent, path)
}

// RestoreRoot registers r again as it was (fumibako folder restore): its
// name and path as given, the folder need not be reachable now. It refuses
// a name that is illegal or in use and a path that is registered or
// overlaps another root. A pending removal of the name is cancelled.
func (s *Settings) RestoreRoot(r Root) error {
	if strings.TrimSpace(r.Path) == "" {
		return refuse(msgNoPath)
	}
	taken := func(n string) bool { _, _, ok := s.Root(n); return ok }
	if !TestStoredIndexName(r.Name) {
		return refuse(msgNameIllegal, r.Name)
	}
	if taken(r.Name) {
		return refuse(msgNameTaken, r.Name)
	}
	if err := s.checkOverlap(realPath(r.Path)); err != nil {
		return err
	}
	s.Roots = append(s.Roots, r)
	s.unremove(r.Name)
	s.dropSource(r.Name)
	return nil
}

// checkOverlap refuses abs when it is a registered root or overlaps one.
func (s *Settings) checkOverlap(abs string) error {
	for _, r := range s.Roots {
		rp := realPath(r.Path)
		if SamePlace(rp, abs) {
			return refuse(msgRegistered, abs, r.Name)
		}
		if IsWithin(abs, rp) || IsWithin(rp, abs) {
			return refuse(msgNested, abs, r.Name, r.Path)
		}
	}
	return nil
}

// realPath is path cleaned, with symbolic links resolved where it exists.
func realPath(path string) string {
	p := filepath.Clean(path)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// defaultName is the index name a new root at path gets: the folder's own
// name made safe (ToSafeFileName), フォルダ for a drive or share root or
// a name that cannot be used, made unique against taken.
func defaultName(path string, taken func(string) bool) string {
	base := ToSafeFileName(filepath.Base(path))
	base = strings.TrimRight(base, ". ")
	if base == "" || base == string(filepath.Separator) || filepath.Base(path) == path {
		base = "フォルダ"
	}
	if !TestIndexName(base) {
		base = "フォルダ"
	}
	return UniqueName(base, taken)
}

// unremove cancels a pending removal of name (it names a root again).
func (s *Settings) unremove(name string) {
	s.Removed = slices.DeleteFunc(s.Removed, func(r Root) bool { return FoldKey(r.Name) == FoldKey(name) })
}

// MarkRemoved records that the user removed the index name (its root, if
// any, already dropped): the next indexing run deletes it. Marking a name
// twice keeps one entry.
func (s *Settings) MarkRemoved(r Root) {
	s.unremove(r.Name)
	s.dropSource(r.Name)
	s.Removed = append(s.Removed, Root{Name: r.Name, Path: r.Path})
}

// IsRemoved reports whether the index name is marked for deletion and is
// no root.
func (s *Settings) IsRemoved(name string) bool {
	if _, _, ok := s.Root(name); ok {
		return false
	}
	return slices.ContainsFunc(s.Removed, func(r Root) bool { return FoldKey(r.Name) == FoldKey(name) })
}

// RenameRoot changes a root's index name. Moving its content folder and
// rewriting the ingest list is the indexer's job (it holds the lock).
func (s *Settings) RenameRoot(oldName, newName string) error {
	_, i, ok := s.Root(oldName)
	if !ok {
		return s.notFound(oldName)
	}
	taken := func(n string) bool {
		_, j, ok := s.Root(n)
		return ok && j != i
	}
	if err := CheckNewName(newName, taken); err != nil {
		return err
	}
	s.Roots[i].Name = newName
	s.unremove(newName)
	s.dropSource(newName)
	for j := range s.IndexSources {
		if FoldKey(s.IndexSources[j].Name) == FoldKey(oldName) {
			s.IndexSources[j].Name = newName
		}
	}
	s.dropExcludes(oldName)
	s.dropExcludes(newName)
	return nil
}

// SetEnabled checks or unchecks a root. An unchecked root keeps its index,
// which stays searchable, but is not crawled.
func (s *Settings) SetEnabled(name string, enabled bool) error {
	_, i, ok := s.Root(name)
	if !ok {
		return s.notFound(name)
	}
	v := enabled
	s.Roots[i].Enabled = &v
	return nil
}

// SetHiddenSheets switches the reading of hidden sheets under a root
// (issue 31).
func (s *Settings) SetHiddenSheets(name string, on bool) error {
	_, i, ok := s.Root(name)
	if !ok {
		return refuse(msgNotFound, name)
	}
	s.Roots[i].HiddenSheets = on
	return nil
}

// SetOCRImages switches the OCR of image files under a root (issue 29).
func (s *Settings) SetOCRImages(name string, on bool) error {
	_, i, ok := s.Root(name)
	if !ok {
		return s.notFound(name)
	}
	s.Roots[i].OCRImages = on
	return nil
}

// RemoveRoot drops a root from the settings, records the removal
// (Removed) and returns it. The next indexing run deletes its index and
// rows (removeDroppedFolders); only a recorded removal does.
func (s *Settings) RemoveRoot(name string) (Root, error) {
	r, i, ok := s.Root(name)
	if !ok {
		return Root{}, s.notFound(name)
	}
	s.Roots = append(s.Roots[:i:i], s.Roots[i+1:]...)
	s.MarkRemoved(r)
	s.dropExcludes(name)
	return r, nil
}

// IsWithin reports whether path is dir or lies below it.
func IsWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

func samePath(a, b string) bool {
	if filepath.Separator == '\\' {
		return strings.EqualFold(a, b)
	}
	return a == b
}
