package watch

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/workspace"
)

// pathSet is the pending paths of one root (`\` paths under it); all
// means the whole root.
type pathSet struct {
	all   bool
	paths map[string]string // fold key → spelling
}

// event records one file-system event; true when it queued a path.
// Ignored: attribute changes, names the crawl never takes (dot names,
// Office's ~$ owner files, temp files without a target extension — a
// file saved through a temp name counts when it is renamed to its own
// name), and anything inside the workspace.
func (w *watcher) event(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || workspace.IsWithin(ev.Name, w.ws.Root) {
		return false
	}
	r, rel, ok := w.rootOf(ev.Name)
	if !ok {
		return false
	}
	if rel == "" {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.toRescan(r, ReasonMissing)
			w.queue(r.Name, "") // its rows stay: a missing root is not crawled
			return true
		}
		return false
	}
	for _, seg := range strings.Split(rel, `\`) {
		if strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "~$") {
			return false
		}
	}
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if gone && w.dirs[ev.Name] {
		w.unwatchTree(ev.Name)
		w.queue(r.Name, rel)
		return true
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			w.watchTree(r, ev.Name)
			w.queue(r.Name, rel)
			return true
		}
	}
	// The crawl's rule: image files count only under a root that reads
	// them by OCR (ocrImages, issue 29).
	if !crawl.IsTarget(filepath.Base(ev.Name), r.OCRImages) {
		return false
	}
	w.queue(r.Name, rel)
	return true
}

// rootOf finds the watched root of a path and the path under it.
func (w *watcher) rootOf(path string) (workspace.Root, string, bool) {
	for _, r := range w.roots {
		if w.rescan[workspace.FoldKey(r.Name)] != nil || !workspace.IsWithin(path, r.Path) {
			continue
		}
		rel, err := filepath.Rel(r.Path, path)
		if err != nil {
			continue
		}
		if rel == "." {
			return r, "", true
		}
		return r, strings.ReplaceAll(rel, string(filepath.Separator), `\`), true
	}
	return workspace.Root{}, "", false
}

// watchTree watches a new folder and the folders inside it (a folder
// created, or moved in with its contents).
func (w *watcher) watchTree(r workspace.Root, dir string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || workspace.IsWorkspace(p) {
			return filepath.SkipDir
		}
		return w.add(p)
	})
	if err != nil {
		w.toRescan(r, reasonOf(err))
	}
}

// unwatchTree forgets a folder that went away and those inside it.
func (w *watcher) unwatchTree(dir string) {
	for d := range w.dirs {
		if workspace.IsWithin(d, dir) {
			w.fsw.Remove(d)
			delete(w.dirs, d)
		}
	}
}

// queue adds a path of a root ("" = the whole root) to the pending batch.
func (w *watcher) queue(name, rel string) {
	now := time.Now()
	if len(w.pending) == 0 {
		w.first = now
	}
	w.lastEvent = now
	k := workspace.FoldKey(name)
	ps := w.pending[k]
	if ps == nil {
		ps = &pathSet{paths: map[string]string{}}
		w.pending[k] = ps
	}
	if rel == "" {
		ps.all = true
		return
	}
	ps.paths[workspace.FoldKey(rel)] = rel
	w.last = name + `\` + rel
}

// quietSince is the time of the last queued event.
func (w *watcher) quietSince() time.Time { return w.lastEvent }

// take empties the pending batch into indexer.Options.Paths.
func (w *watcher) take() map[string][]string {
	out := map[string][]string{}
	for _, r := range w.roots {
		ps := w.pending[workspace.FoldKey(r.Name)]
		if ps == nil {
			continue
		}
		var paths []string
		if !ps.all {
			for _, p := range ps.paths {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			if len(paths) == 0 {
				continue
			}
		}
		out[r.Name] = paths
	}
	w.pending = map[string]*pathSet{}
	if len(out) == len(w.roots) && allWhole(out) {
		return nil // every root whole: a full run
	}
	return out
}

func allWhole(m map[string][]string) bool {
	for _, p := range m {
		if p != nil {
			return false
		}
	}
	return true
}

func sortRescan(rs []Rescan) {
	sort.Slice(rs, func(i, j int) bool { return workspace.FoldKey(rs[i].Name) < workspace.FoldKey(rs[j].Name) })
}
