package ocrcache_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ocrcache"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestSweep: key lists of files gone from the ingest list go; an
// entry no file lists goes once it is past the grace period; over the cap
// the oldest entries go, used or not.
func TestSweep(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	key := func(c byte) string { return strings.Repeat(string(c), 64) }
	type entry struct {
		key string
		age time.Duration
	}
	tests := []struct {
		name    string
		entries []entry
		lists   map[string][]string // relative path → keys
		listed  []string            // paths still in the ingest list
		limit   int64
		kept    []string // keys left
		lists2  int      // key lists left
	}{
		{"used entries stay", []entry{{key('a'), 30 * 24 * time.Hour}}, map[string][]string{`営業\a.pdf`: {key('a')}}, []string{`営業\a.pdf`}, 1 << 30, []string{key('a')}, 1},
		{"unused within grace stays", []entry{{key('a'), time.Hour}}, nil, nil, 1 << 30, []string{key('a')}, 0},
		{"unused past grace goes", []entry{{key('a'), 8 * 24 * time.Hour}, {key('b'), time.Hour}}, nil, nil, 1 << 30, []string{key('b')}, 0},
		{"a gone file's list goes, then its old entries", []entry{{key('a'), 8 * 24 * time.Hour}}, map[string][]string{`営業\gone.pdf`: {key('a')}}, nil, 1 << 30, nil, 0},
		{"over the cap the oldest go", []entry{{key('a'), 3 * time.Hour}, {key('b'), 2 * time.Hour}, {key('c'), time.Hour}},
			map[string][]string{`営業\a.pdf`: {key('a'), key('b'), key('c')}}, []string{`営業\a.pdf`}, 40, []string{key('c')}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := &workspace.Workspace{Root: t.TempDir()}
			for _, e := range tt.entries {
				p := workspace.OCRCacheEntry(ws.OCRCache(), e.key)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte("見積書 ページ\n"), 0o644) // 20 bytes
				os.Chtimes(p, now.Add(-e.age), now.Add(-e.age))
			}
			os.MkdirAll(ws.OCRKeyLists(), 0o755)
			i := 0
			for rel, keys := range tt.lists {
				i++
				data := "\xef\xbb\xbf" + rel + "\r\n" + strings.Join(keys, "\r\n") + "\r\n"
				os.WriteFile(filepath.Join(ws.OCRKeyLists(), strings.Repeat("0", 31)+string(rune('0'+i))+".tsv"), []byte(data), 0o644)
			}
			listed := func(rel string) bool {
				for _, l := range tt.listed {
					if l == rel {
						return true
					}
				}
				return false
			}
			ocrcache.Sweep(ws, listed, now, tt.limit)
			var kept []string
			for _, e := range tt.entries {
				if _, err := os.Stat(workspace.OCRCacheEntry(ws.OCRCache(), e.key)); err == nil {
					kept = append(kept, e.key)
				}
			}
			if strings.Join(kept, ",") != strings.Join(tt.kept, ",") {
				t.Errorf("Sweep kept %v, want %v", kept, tt.kept)
			}
			if ls, _ := os.ReadDir(ws.OCRKeyLists()); len(ls) != tt.lists2 {
				t.Errorf("key lists left: %d, want %d", len(ls), tt.lists2)
			}
		})
	}
}
