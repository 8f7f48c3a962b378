package ocrcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Cap bounds the page cache, in bytes of entries.
const Cap = 1 << 30

// UnusedGrace is how long an entry no file lists is kept.
const UnusedGrace = 7 * 24 * time.Hour

// SweepEvery is how often the cache itself is walked.
const SweepEvery = 24 * time.Hour

// DropGone removes the key lists of paths that listed says are gone and
// returns the keys the others name.
func DropGone(ws *workspace.Workspace, listed func(rel string) bool) map[string]bool {
	used := map[string]bool{}
	lists, _ := os.ReadDir(ws.OCRKeyLists())
	for _, e := range lists {
		path := filepath.Join(ws.OCRKeyLists(), e.Name())
		rel, keys, err := ReadKeyList(path)
		if err != nil {
			continue
		}
		if !listed(rel) {
			workspace.Remove(path)
			continue
		}
		for _, k := range keys {
			used[k] = true
		}
	}
	return used
}

// Sweep removes key lists of paths that listed says are gone and page
// entries as the package comment says, with now the clock and limit the
// cap (Cap; a parameter for tests). It returns the entries removed and
// their bytes.
func Sweep(ws *workspace.Workspace, listed func(rel string) bool, now time.Time, limit int64) (removed int, freed int64) {
	used := DropGone(ws, listed)
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var kept []entry
	var total int64
	filepath.WalkDir(ws.OCRCache(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".txt") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		key := strings.TrimSuffix(d.Name(), ".txt")
		if !used[key] && now.Sub(info.ModTime()) > UnusedGrace {
			if workspace.Remove(path) == nil {
				removed++
				freed += info.Size()
			}
			return nil
		}
		kept = append(kept, entry{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= limit {
		return removed, freed
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].mod.Before(kept[j].mod) })
	for _, e := range kept {
		if total <= limit*9/10 {
			break
		}
		if workspace.Remove(e.path) == nil {
			removed++
			freed += e.size
			total -= e.size
		}
	}
	return removed, freed
}
