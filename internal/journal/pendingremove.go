package journal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Removal is one line of work/store/pending_remove.tsv: a source file to
// take out of the body index of a folder that is not published yet.
type Removal struct {
	RelPath string // source file, `<index>\<path under the crawl root>`, `\` separators
	Folder  string // folder relative to store/content whose body index holds it, `\` separators
}

// ParsePendingRemove parses pending_remove.tsv (format in the package
// comment). Malformed lines (fewer than two columns, a path failing the name
// rules, not UTF-8) are skipped, extra columns ignored, a last line without
// a newline dropped as torn, and repeated lines (compared
// case-insensitively) kept once. The error is only one returned by r.
func ParsePendingRemove(r io.Reader) ([]Removal, error) {
	var out []Removal
	seen := map[Removal]bool{}
	_, err := scanLines(r, func(line string, ok bool) bool {
		if !ok {
			return false
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || !validPath(cols[0], minFileSegments) || !validPath(cols[1], minFolderSegments) {
			return false
		}
		rm := Removal{RelPath: cols[0], Folder: cols[1]}
		key := Removal{workspace.FoldKey(rm.RelPath), workspace.FoldKey(rm.Folder)}
		if !seen[key] {
			seen[key] = true
			out = append(out, rm)
		}
		return false
	})
	if err != nil {
		return nil, fmt.Errorf("journal: read pending removals: %w", err)
	}
	return out, nil
}

// ReadPendingRemove reads the pending_remove.tsv at path. A missing file
// gives no removals and no error.
func ReadPendingRemove(path string) ([]Removal, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	defer f.Close()
	rs, err := ParsePendingRemove(f)
	if err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", path, errors.Unwrap(err))
	}
	return rs, nil
}

// AppendPendingRemove writes rs in the format of pending_remove.tsv to b.
// A removal the reader would reject is an error wrapping ErrInvalid.
func AppendPendingRemove(b []byte, rs []Removal) ([]byte, error) {
	if len(b) == 0 {
		b = append(b, bom...)
	}
	for _, rm := range rs {
		if !validPath(rm.RelPath, minFileSegments) || !validPath(rm.Folder, minFolderSegments) {
			return nil, fmt.Errorf("%w: pending removal %q in folder %q", ErrInvalid, rm.RelPath, rm.Folder)
		}
		b = append(b, rm.RelPath...)
		b = append(b, '\t')
		b = append(b, rm.Folder...)
		b = append(b, crlf...)
	}
	return b, nil
}

// WritePendingRemove replaces the pending_remove.tsv at path with rs
// (workspace.WriteFileAtomic: temporary file, fsync, rename, so it is on
// disk before the caller drops the ingest-list rows). With no removals the
// file is deleted instead (seed: 「0 件なら消す」).
func WritePendingRemove(path string, rs []Removal) error {
	if len(rs) == 0 {
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := workspace.Remove(path); err != nil {
			return fmt.Errorf("journal: remove %s: %w", path, err)
		}
		return workspace.SyncDir(filepath.Dir(path))
	}
	b, err := AppendPendingRemove(nil, rs)
	if err != nil {
		return fmt.Errorf("journal: write %s: %w", path, err)
	}
	if err := workspace.WriteFileAtomic(path, b); err != nil {
		return fmt.Errorf("journal: write %s: %w", path, err)
	}
	return nil
}

// AddPendingRemove adds rs to the removals already in the file at path and
// rewrites it (before the ingest-list rows are dropped: 「先に記録・後に一覧」).
// Removals already listed are not repeated.
func AddPendingRemove(path string, rs []Removal) error {
	old, err := ReadPendingRemove(path)
	if err != nil {
		return err
	}
	seen := map[Removal]bool{}
	all := make([]Removal, 0, len(old)+len(rs))
	for _, rm := range append(old, rs...) {
		key := Removal{workspace.FoldKey(rm.RelPath), workspace.FoldKey(rm.Folder)}
		if !seen[key] {
			seen[key] = true
			all = append(all, rm)
		}
	}
	return WritePendingRemove(path, all)
}

// WithoutFolder returns the removals whose Folder is not folder (compared
// case-insensitively), in order.
func WithoutFolder(rs []Removal, folder string) []Removal {
	key := workspace.FoldKey(folder)
	var out []Removal
	for _, rm := range rs {
		if workspace.FoldKey(rm.Folder) != key {
			out = append(out, rm)
		}
	}
	return out
}

// DropPublished removes the removals of folder from the file at path once
// that folder was published (seed: 「書き出し終えたフォルダの分から記録を外し、
// 0 件なら消す」). The file is rewritten only when something was dropped.
func DropPublished(path, folder string) error {
	rs, err := ReadPendingRemove(path)
	if err != nil {
		return err
	}
	left := WithoutFolder(rs, folder)
	if len(left) == len(rs) && len(rs) > 0 {
		return nil
	}
	// With nothing left (or nothing readable) the file is removed.
	return WritePendingRemove(path, left)
}
