package source

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// FileName is the name of the file in an index's top folder that records
// its crawl root (reference/indexing.md §2).
const FileName = "source_folder.txt"

// fileComment is the comment line of source_folder.txt.
const fileComment = "# fumibako: インデックス名<TAB>元のフォルダ（インデックス作成のたびに書き直します）"

// FilePath is store/content/<index>/source_folder.txt.
func FilePath(contentRoot, index string) string {
	return filepath.Join(contentRoot, index, FileName)
}

// Format returns the bytes of source_folder.txt for an index and its root
// (one of the workspace's small TSVs, workspace.EncodeTSV).
func Format(index, root string) []byte {
	return workspace.EncodeTSV([][]string{{fileComment}, {index, root}})
}

// Parse reads source_folder.txt bytes: the index name and root of its
// first data line; ok is false when there is none.
func Parse(data []byte) (index, root string, ok bool) {
	for _, row := range workspace.DecodeTSV(data) {
		if strings.HasPrefix(row[0], "#") || len(row) < 2 || strings.TrimSpace(row[1]) == "" {
			continue
		}
		return row[0], row[1], true
	}
	return "", "", false
}

// Read returns the root recorded in the index's source_folder.txt.
func Read(contentRoot, index string) (string, bool) {
	data, err := os.ReadFile(FilePath(contentRoot, index))
	if err != nil {
		return "", false
	}
	_, root, ok := Parse(data)
	return root, ok
}

// errFolderThere: a per-file folder of a source file named like ours
// holds the path for now.
var errFolderThere = errors.New("source: a folder holds " + FileName)

// Write brings the index's source_folder.txt up to date (through
// workspace.WriteFileAtomic) when the index's folder exists; an unchanged
// file is not written again (an unchanged rerun writes nothing, issue 21).
// changed reports a write.
func Write(contentRoot, index, root string) (changed bool, err error) {
	dir := filepath.Join(contentRoot, index)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return false, nil
	}
	p := FilePath(contentRoot, index)
	data := Format(index, root)
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		return false, fmt.Errorf("source: write %s: %w", p, errFolderThere)
	}
	if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := workspace.WriteFileAtomic(p, data); err != nil {
		return false, err
	}
	return true, nil
}
