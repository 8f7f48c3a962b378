package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Why a hit's file cannot be opened (Error.Kind).
type Kind int

const (
	BadPath Kind = iota // not an index path: a malformed request
	Unknown             // no folder is known for the index
	Confirm             // a received index whose folder the user has not confirmed
	Missing             // not in the ingest list, or not found where the index says
	Outside             // the path resolves outside its source folder
)

// Messages (reference/search.md §9, reference/gui.md §4.8).
const (
	MsgConfirmTitle = "元のフォルダを確かめてください"
	msgConfirm      = MsgConfirmTitle + "：インデックス「%s」はほかのパソコンから受け取ったものです。元のフォルダ %s のファイルを開く前に、このフォルダでよいか確かめてください。"
	MsgNetworkWarn  = "このフォルダはネットワーク上にあります。開くと、Windows がこのパソコンのユーザー名などをそのコンピューターに送ることがあります。知らないコンピューターなら開かないでください。"
	msgFileMissing  = "%s が見つかりません"
	msgNoFolder     = "インデックス「%s」の元のフォルダが登録されていません。"
	MsgRepointed    = "インデックス「%s」の元のフォルダを %s に変えました"
	msgNotRepointed = "%s は、選んだフォルダ %s にも見つかりません。"
	msgBadPath      = "「%s」はインデックスのファイルのパス（インデックス名\\パス）ではありません。"
	msgOutside      = "%s は元のフォルダの外を指しているため開きません。"
)

// Error is a hit that cannot be opened (yet). Msg is the Japanese text;
// Folder the index's folder as looked up (for the dialogs).
type Error struct {
	Kind   Kind
	Msg    string
	Folder Folder
	Err    error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// File is a hit's source file found on disk.
type File struct {
	Rel    string // the index path (`<index>\<path under the root>`)
	Path   string // the OS path of the file
	Folder Folder
	// ReadOnly: open only read-only (a macro-capable file of a received
	// index); OpenTarget makes the read-only copy.
	ReadOnly bool
}

// Resolve turns an index path (`<index>\<path under the root>`, the
// ingest list's relative path) into its source file. Every segment must
// be a plain name; the index's folder is looked up (Lookup) and must be
// confirmed for a received index; the file must be one the ingest list
// names and, with its symbolic links resolved, lie under its folder (the
// folder itself resolved), as a regular file. A file not under the folder
// is tried under the other spelling of the share (Locate). Nothing else on
// the machine can be reached this way.
func Resolve(contentRoot string, s *workspace.Settings, l *ingestlist.List, rel string) (File, error) {
	if !ingestlist.ValidRelPath(rel) {
		return File{}, &Error{Kind: BadPath, Msg: fmt.Sprintf(msgBadPath, rel), Err: errors.New("source: not an index path: " + rel)}
	}
	index, rest := ingestlist.SplitRelPath(rel)
	folder, ok := Lookup(contentRoot, s, index)
	if !ok {
		return File{}, &Error{Kind: Unknown, Msg: fmt.Sprintf(msgNoFolder, index), Folder: folder, Err: errors.New("source: no folder for index " + index)}
	}
	name := filepath.Base(ingestlist.LocalPath(rest))
	if _, ok := l.Lookup(rel); !ok {
		return File{}, &Error{Kind: Missing, Msg: fmt.Sprintf(msgFileMissing, name), Folder: folder, Err: errors.New("source: not in the ingest list: " + rel)}
	}
	if folder.NeedsConfirm() {
		msg := fmt.Sprintf(msgConfirm, folder.Index, folder.Path)
		return File{}, &Error{Kind: Confirm, Msg: msg, Folder: folder, Err: errors.New("source: folder of received index not confirmed: " + index)}
	}
	p, root, found := Locate(folder.Path, rest)
	if !found {
		return File{}, &Error{Kind: Missing, Msg: fmt.Sprintf(msgFileMissing, name), Folder: folder, Err: errors.New("source: not found: " + rel)}
	}
	real, err := within(p, root)
	if err != nil {
		return File{}, &Error{Kind: Outside, Msg: fmt.Sprintf(msgOutside, rel), Folder: folder, Err: err}
	}
	return File{Rel: rel, Path: real, Folder: folder, ReadOnly: folder.ReadOnlyOnly(name)}, nil
}

// within resolves p's symbolic links and checks that it stays under root
// (resolved too) and is a regular file.
func within(p, root string) (string, error) {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("source: root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("source: %s: %w", p, err)
	}
	if !workspace.IsWithin(real, rootReal) {
		return "", fmt.Errorf("source: %s resolves outside its root %s", p, root)
	}
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("source: not a regular file: %s", p)
	}
	return real, nil
}

// OpenTarget returns what to hand to the desktop's application for f: the
// file itself, or a read-only copy of it under tmpRoot (ReadOnlyCopy) for
// a file that may only be opened read-only. An error means the file must
// not be opened at all (reference/search.md §9).
func OpenTarget(f File, tmpRoot string) (string, error) {
	if !f.ReadOnly {
		return f.Path, nil
	}
	return ReadOnlyCopy(ReadOnlyDir(tmpRoot), f.Path)
}

// Repointed is the outcome of RepointIndex: the file found under the
// picked folder and the index's new source folder.
type Repointed struct {
	Index, Root, Path string
	Msg               string // インデックス [名前] の元のフォルダを … に変えました
}

// FindUnder looks for a hit's file under a folder the user picked
// (Candidates' order, the share's other spellings too) and returns the
// index's new source folder; the caller stores it (Settings.SetSource)
// so the index's other files open without asking.
func FindUnder(picked, rel string) (Repointed, error) {
	if !ingestlist.ValidRelPath(rel) {
		return Repointed{}, &Error{Kind: BadPath, Msg: fmt.Sprintf(msgBadPath, rel), Err: errors.New("source: not an index path: " + rel)}
	}
	index, rest := ingestlist.SplitRelPath(rel)
	abs, err := filepath.Abs(picked)
	if err != nil {
		abs = picked
	}
	c, ok := Repoint(abs, rest)
	if !ok {
		name := filepath.Base(ingestlist.LocalPath(rest))
		return Repointed{}, &Error{Kind: Missing, Msg: fmt.Sprintf(msgNotRepointed, name, abs), Err: errors.New("source: not under " + abs + ": " + rel)}
	}
	return Repointed{Index: index, Root: c.Root, Path: c.Path, Msg: fmt.Sprintf(MsgRepointed, index, c.Root)}, nil
}
