package ocrcache

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Encode is the bytes of a page entry holding lines.
func Encode(lines []string) []byte {
	var b strings.Builder
	nl := strings.NewReplacer("\r\n", "\u2028", "\r", "\u2028", "\n", "\u2028")
	for _, l := range lines {
		b.WriteString(nl.Replace(l))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Decode reads the lines of a page entry.
func Decode(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if len(data) == 0 {
		return []string{}
	}
	return strings.Split(s, "\n")
}

// Read returns the lines cached for key in the cache folder dir; false
// when there is none or it cannot be read (the page is recognized again,
// which costs time, never text).
func Read(dir, key string) ([]string, bool) {
	if dir == "" || !workspace.ValidOCRKey(key) {
		return nil, false
	}
	data, err := os.ReadFile(workspace.OCRCacheEntry(dir, key))
	if err != nil {
		return nil, false
	}
	return Decode(data), true
}

// Write stores the lines of the page key in the cache folder dir. The key
// must be valid (workspace.ValidOCRKey).
func Write(dir, key string, lines []string) error {
	path := workspace.OCRCacheEntry(dir, key)
	if err := workspace.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return workspace.WriteFileAtomic(path, Encode(lines))
}
