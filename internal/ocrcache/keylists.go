package ocrcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/workspace"
)

// KeyListPath is the key list of the relative path rel in the key-list
// folder dir (workspace.OCRKeyLists).
func KeyListPath(dir, rel string) string {
	sum := sha256.Sum256([]byte(workspace.FoldKey(rel)))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".tsv")
}

// WriteKeyList records the keys the file rel uses in the key-list folder
// dir; merge adds them to those already listed. rel is written as the
// list's first line as it is: the caller cleans it of tabs and line
// breaks (ingestlist.CleanError).
func WriteKeyList(dir, rel string, keys []string, merge bool) error {
	path := KeyListPath(dir, rel)
	if merge {
		if _, old, err := ReadKeyList(path); err == nil {
			keys = append(old, keys...)
		}
	}
	rows := [][]string{{rel}}
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[k] && workspace.ValidOCRKey(k) {
			seen[k] = true
			rows = append(rows, []string{k})
		}
	}
	if err := workspace.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return workspace.WriteFileAtomic(path, workspace.EncodeTSV(rows))
}

// RemoveKeyList removes the key list of rel, if any.
func RemoveKeyList(dir, rel string) error {
	err := workspace.Remove(KeyListPath(dir, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ReadKeyList reads a key list: the file's relative path and its keys.
func ReadKeyList(path string) (string, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	var rel string
	var keys []string
	for i, row := range workspace.DecodeTSV(data) {
		switch {
		case i == 0:
			rel = row[0]
		case workspace.ValidOCRKey(row[0]):
			keys = append(keys, row[0])
		}
	}
	return rel, keys, nil
}
