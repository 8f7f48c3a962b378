package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FolderError is a refused folder operation. Error is the Japanese message
// shown to the user; Unwrap gives the English cause where there is one.
type FolderError struct {
	Msg   string
	Cause error
}

func (e *FolderError) Error() string { return e.Msg }
func (e *FolderError) Unwrap() error { return e.Cause }

func refuse(format string, a ...any) error {
	return &FolderError{Msg: fmt.Sprintf(format, a...)}
}

// Messages of the folder commands (reference/gui.md §2.4 where it gives one).
const (
	msgNameEmpty   = "インデックス名を入力してください。"
	msgNameIllegal = "インデックス名 [%s] は使えません（\\ / : * ? \" < > | や制御文字、最後の . や空白、CON・PRN・AUX・NUL・COM1～9・LPT1～9 は使えません。255 文字まで）。"
	msgNameTaken   = "インデックス名 [%s] は既に使われています。"
	msgNotFound    = "インデックス [%s] はありません。"
	msgNoPath      = "元のフォルダを指定してください。"
	msgPathMissing = "フォルダが見つかりません: %s"
	msgNotFolder   = "フォルダではありません: %s"
	msgRegistered  = "「%s」のインデックス [%s] が既にあります。"
	msgNested      = "「%s」は、登録済みのインデックス [%s]（%s）と重なるため登録できません（登録済みのフォルダの中のフォルダや、それを含むフォルダは登録できません）。"
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

// AddRoot registers path as a new crawl root and returns it. name may be
// empty: the folder's own name is used, made safe with ToSafeFileName and
// unique with (2), (3)… usedBefore lists names used earlier (the ingest
// list's folder lines), which a default name also avoids.
//
// It refuses a path that does not exist, is not a folder, is already
// registered, overlaps another root, or contains or lies inside the
// workspace.
func (s *Settings) AddRoot(path, name, workspaceRoot string, usedBefore []string) (Root, error) {
	if strings.TrimSpace(path) == "" {
		return Root{}, refuse(msgNoPath)
	}
	abs, err := filepath.Abs(strings.TrimSpace(path))
	if err != nil {
		return Root{}, &FolderError{Msg: fmt.Sprintf(msgPathMissing, path), Cause: err}
	}
	abs = filepath.Clean(abs)
	st, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return Root{}, refuse(msgPathMissing, abs)
	}
	if err != nil {
		return Root{}, &FolderError{Msg: fmt.Sprintf(msgPathMissing, abs), Cause: err}
	}
	if !st.IsDir() {
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
	for _, r := range s.Roots {
		rp := filepath.Clean(r.Path)
		if real, err := filepath.EvalSymlinks(rp); err == nil {
			rp = real
		}
		if samePath(rp, abs) {
			return Root{}, refuse(msgRegistered, abs, r.Name)
		}
		if IsWithin(abs, rp) || IsWithin(rp, abs) {
			return Root{}, refuse(msgNested, abs, r.Name, r.Path)
		}
	}
	taken := func(n string) bool {
		_, _, ok := s.Root(n)
		return ok || NameIn(usedBefore, n)
	}
	if name == "" {
		base := ToSafeFileName(filepath.Base(abs))
		base = strings.TrimRight(base, ". ")
		if base == "" || base == string(filepath.Separator) || filepath.Base(abs) == abs {
			base = "フォルダ"
		}
		if !TestIndexName(base) {
			base = "フォルダ"
		}
		name = UniqueName(base, taken)
	} else {
		onlySettings := func(n string) bool { _, _, ok := s.Root(n); return ok }
		if err := CheckNewName(name, onlySettings); err != nil {
			return Root{}, err
		}
	}
	r := Root{Name: name, Path: abs}
	s.Roots = append(s.Roots, r)
	return r, nil
}

// RenameRoot changes a root's index name. Moving its content folder and
// rewriting the ingest list is the indexer's job (it holds the lock).
func (s *Settings) RenameRoot(oldName, newName string) error {
	_, i, ok := s.Root(oldName)
	if !ok {
		return refuse(msgNotFound, oldName)
	}
	taken := func(n string) bool {
		_, j, ok := s.Root(n)
		return ok && j != i
	}
	if err := CheckNewName(newName, taken); err != nil {
		return err
	}
	s.Roots[i].Name = newName
	return nil
}

// SetEnabled checks or unchecks a root. An unchecked root keeps its index,
// which stays searchable, but is not crawled.
func (s *Settings) SetEnabled(name string, enabled bool) error {
	_, i, ok := s.Root(name)
	if !ok {
		return refuse(msgNotFound, name)
	}
	v := enabled
	s.Roots[i].Enabled = &v
	return nil
}

// RemoveRoot drops a root from the settings and returns it. The next
// indexing run deletes its index and rows (removeDroppedFolders).
func (s *Settings) RemoveRoot(name string) (Root, error) {
	r, i, ok := s.Root(name)
	if !ok {
		return Root{}, refuse(msgNotFound, name)
	}
	s.Roots = append(s.Roots[:i:i], s.Roots[i+1:]...)
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
