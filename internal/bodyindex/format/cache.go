package format

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Parts stay mapped between searches of one process (the web server runs
// many; the CLI exits without paying for munmap). This is safe because a
// part's name is the hash of its bytes: the same path, size and
// modification time mean the same content, so a mapping found in the
// cache is the part the manifest names. Mappings of parts that their
// folder's manifest no longer lists are dropped when no search uses them,
// as soon as the folder is opened or published again; beyond cacheLimit
// mapped bytes the least recently used unused mappings go.

// mapping is one mapped part file.
type mapping struct {
	path  string
	size  int64
	mtime time.Time
	data  []byte
	unmap func() error
	part  *Part
	err   error
	refs  int
	stale bool
	used  uint64
}

var cache = struct {
	sync.Mutex
	m     map[string]*mapping
	byDir map[string][]string
	bytes int64
	clock uint64
}{m: map[string]*mapping{}, byDir: map[string][]string{}}

// cacheLimit bounds the mapped bytes kept for later searches.
var cacheLimit = func() int64 {
	if strconv.IntSize == 32 {
		return 256 << 20
	}
	return 32 << 30
}()

// acquire maps (or finds mapped) the parts refs of dir, of the parts
// listed by its manifest, and takes a reference on each. vanished reports
// a part that does not exist: the manifest was replaced meanwhile and the
// caller reads it again.
func acquire(dir string, listed, refs []PartRef) (ms []*mapping, vanished bool) {
	cache.Lock()
	defer cache.Unlock()
	cache.clock++
	paths := make([]string, len(listed))
	for i, r := range listed {
		paths[i] = filepath.Join(dir, PartName(r.ID))
	}
	for _, r := range refs {
		path := filepath.Join(dir, PartName(r.ID))
		m := cache.m[path]
		if m != nil {
			st, err := os.Stat(path)
			if errors.Is(err, os.ErrNotExist) {
				for _, x := range ms {
					releaseLocked(x)
				}
				return nil, true
			}
			if err == nil && m.size == st.Size() && m.mtime.Equal(st.ModTime()) && !m.stale {
				m.refs++
				m.used = cache.clock
				ms = append(ms, m)
				continue
			}
			// Changed under the same name (not by fumibako): forget it.
			m.stale = true
			delete(cache.m, path)
			if m.refs == 0 {
				dropLocked(m)
			}
		}
		m = &mapping{path: path, refs: 1, used: cache.clock}
		var st os.FileInfo
		m.data, m.unmap, st, m.err = mapFile(path)
		if errors.Is(m.err, os.ErrNotExist) {
			for _, x := range ms {
				releaseLocked(x)
			}
			return nil, true
		}
		if m.err == nil {
			adviseRandom(m.data)
			m.size, m.mtime = st.Size(), st.ModTime()
			cache.bytes += int64(len(m.data))
			m.part, m.err = ParsePart(path, m.data)
		}
		cache.m[path] = m
		ms = append(ms, m)
	}
	forgetLocked(dir, paths)
	for cache.bytes > cacheLimit && evictOneLocked() {
	}
	return ms, false
}

// release drops the references taken by acquire.
func release(ms []*mapping) {
	cache.Lock()
	defer cache.Unlock()
	for _, m := range ms {
		releaseLocked(m)
	}
}

func releaseLocked(m *mapping) {
	m.refs--
	if m.refs == 0 && m.stale {
		dropLocked(m)
	}
}

// forgetLocked records the parts dir's manifest lists now and marks the
// ones it listed before and no longer does as stale.
func forgetLocked(dir string, keep []string) {
	kept := map[string]bool{}
	for _, p := range keep {
		kept[p] = true
	}
	for _, p := range cache.byDir[dir] {
		if kept[p] {
			continue
		}
		if m := cache.m[p]; m != nil {
			m.stale = true
			delete(cache.m, p)
			if m.refs == 0 {
				dropLocked(m)
			}
		}
	}
	if len(keep) == 0 {
		delete(cache.byDir, dir)
	} else {
		cache.byDir[dir] = keep
	}
}

// ForgetDir drops the cached parts of dir that are not in keep (names of
// part files), after a publish or a removal.
func ForgetDir(dir string, keep map[string]bool) {
	cache.Lock()
	defer cache.Unlock()
	var paths []string
	for name := range keep {
		paths = append(paths, filepath.Join(dir, name))
	}
	forgetLocked(dir, paths)
}

func dropLocked(m *mapping) {
	if m.unmap != nil {
		m.unmap()
		m.unmap = nil
		cache.bytes -= int64(len(m.data))
		// A publish that could not delete the part while it was mapped
		// here renamed it (deferred.go): it can go now.
		removeDeferredOf(m.path)
	}
	if cache.m[m.path] == m {
		delete(cache.m, m.path)
	}
}

// DropUnused unmaps the parts of dir that no search is using, after dir
// was published: the publisher (the indexer's coordinator) has no further
// use for the old parts it read, and the pages it touched would otherwise
// stay in its memory, counted in its RSS, one republished folder after
// another until the run ends (issue 21: 135 MB at 1 GB with 1 % of the
// files changed). A search maps them again when it needs them.
func DropUnused(dir string) {
	cache.Lock()
	defer cache.Unlock()
	for _, p := range cache.byDir[dir] {
		if m := cache.m[p]; m != nil && m.refs == 0 {
			dropLocked(m)
		}
	}
}

// ReleaseMappings unmaps every part no search is using now. Windows cannot
// delete a mapped file: tests call it before their folders go.
func ReleaseMappings() {
	cache.Lock()
	defer cache.Unlock()
	for _, m := range cache.m {
		if m.refs == 0 {
			dropLocked(m)
		}
	}
}

// evictOneLocked unmaps the least recently used mapping nobody uses.
func evictOneLocked() bool {
	var victim *mapping
	for _, m := range cache.m {
		if m.refs == 0 && (victim == nil || m.used < victim.used) {
			victim = m
		}
	}
	if victim == nil {
		return false
	}
	dropLocked(victim)
	return true
}

// Mapped returns how many parts of dir this process keeps mapped, used by
// a search or cached: Publish's tests check that a publish leaves none of
// its own behind (issue 21).
func Mapped(dir string) int {
	cache.Lock()
	defer cache.Unlock()
	n := 0
	for p, m := range cache.m {
		if filepath.Dir(p) == dir && m.unmap != nil {
			n++
		}
	}
	return n
}
