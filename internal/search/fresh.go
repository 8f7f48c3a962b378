package search

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Freshness of a hit's file at display time (issue 18): the index says
// what the file was when it was indexed (Hit.Modified, Hit.Size); one stat
// of the file says what it is now.
type Freshness string

const (
	// Fresh: the file is as indexed, or its state cannot be told (the
	// index does not know its time, the root is unknown or unreachable).
	Fresh Freshness = ""
	// Deleted: the file is gone.
	Deleted Freshness = "deleted"
	// Changed: the file's modification time (to the second, as the ingest
	// list compares it) or size differs from the indexed ones; the next
	// indexing run ingests it again.
	Changed Freshness = "changed"
)

// Markers shown beside such a hit (web UI and terminal table; issue 18).
const (
	MsgFileDeleted = "削除されています"
	MsgFileChanged = "インデックス作成後に変更されています"
)

// Message returns the marker of f, "" when fresh.
func (f Freshness) Message() string {
	switch f {
	case Deleted:
		return MsgFileDeleted
	case Changed:
		return MsgFileChanged
	}
	return ""
}

// SourcePath returns the OS path of a file of an index whose source folder
// is root: root + the path under it (`\` separated), in the OS's own form
// (issue 31). A Windows root (`C:\…`, `\\server\share\…`) recorded by a
// received index keeps `\` on other systems too, so the path can still be
// pasted where it means something. "" when root is "".
func SourcePath(root, relPath string) string {
	if root == "" {
		return ""
	}
	if filepath.Separator != '\\' && windowsPath(root) {
		return strings.TrimRight(root, `\`) + `\` + relPath
	}
	return filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(relPath, `\`, "/")))
}

// windowsPath reports whether p is a drive (`C:\`) or UNC (`\\fs01\…`)
// path.
func windowsPath(p string) bool {
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && p[2] == '\\' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// CheckFile compares the file at path with its indexed time and size.
func CheckFile(path string, modified time.Time, size int64) Freshness {
	if path == "" {
		return Fresh
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !st.Mode().IsRegular() {
		return Deleted
	}
	if err != nil || modified.IsZero() {
		return Fresh
	}
	if st.ModTime().Unix() != modified.Unix() || st.Size() != size {
		return Changed
	}
	return Fresh
}

// Checker checks files once each (one stat per shown file) and remembers
// the answer; safe for concurrent use.
type Checker struct {
	roots map[string]string // FoldKey(index name) → crawl root
	mu    sync.Mutex
	seen  map[string]Freshness
}

// NewChecker returns a Checker for the files of indexes.
func NewChecker(indexes []Index) *Checker {
	c := &Checker{roots: map[string]string{}, seen: map[string]Freshness{}}
	for _, ix := range indexes {
		c.roots[workspace.FoldKey(ix.Name)] = ix.RootPath
	}
	return c
}

// Check returns the freshness of h's file.
func (c *Checker) Check(h Hit) Freshness {
	return c.CheckPath(h.Index, h.RelPath, h.Modified, h.Size)
}

// CheckPath returns the freshness of the file relPath of index.
func (c *Checker) CheckPath(index, relPath string, modified time.Time, size int64) Freshness {
	key := workspace.FoldKey(index + `\` + relPath)
	c.mu.Lock()
	f, ok := c.seen[key]
	c.mu.Unlock()
	if ok {
		return f
	}
	f = CheckFile(SourcePath(c.roots[workspace.FoldKey(index)], relPath), modified, size)
	c.mu.Lock()
	c.seen[key] = f
	c.mu.Unlock()
	return f
}
