package content

import (
	"path/filepath"
	"strings"
)

// Dir returns the OS path of a relative path of the ingest list
// (`<index>\<rel path>`, `\` separators) below the content root: for a
// source file this is its per-file folder; for a folder key (journal 出)
// the folder holding its body index.
func Dir(root, rel string) string {
	if rel == "" {
		return root
	}
	return filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(rel, `\`, "/")))
}

// FolderOf returns the folder key of a file key: everything before the last
// `\` (`営業\2024\見積\A社.xlsx` → `営業\2024\見積`).
func FolderOf(rel string) string {
	if i := strings.LastIndexByte(rel, '\\'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// BaseOf returns the file name of a file key.
func BaseOf(rel string) string {
	return rel[strings.LastIndexByte(rel, '\\')+1:]
}

// RelOf turns an OS path below root back into a `\`-separated key.
func RelOf(root, path string) (string, bool) {
	r, err := filepath.Rel(root, path)
	if err != nil || r == "." || strings.HasPrefix(r, "..") {
		return "", false
	}
	return strings.ReplaceAll(filepath.ToSlash(r), "/", `\`), true
}
