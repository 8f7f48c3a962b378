package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Index is one index to search: its name (the folder under the content
// root), the crawl root it was made from (settings) and its source folder.
type Index struct {
	Name     string
	RootPath string
	// Source is where the index's files are on this computer, looked up
	// as reference/search.md §9 says (source.Lookup: source_folder.txt,
	// the crawl root, indexSources); "" when unknown. Hits carry
	// SourcePath(Source, RelPath) as FullPath.
	Source string
}

// Stats describes one search (Zoekt's Stats; STYLE.md §6).
type Stats struct {
	Folders         int   // folders whose body index was opened
	FoldersSkipped  int   // folders the index summary skipped unopened (no part can match)
	FoldersFiltered int   // folders skipped by the file filters before any part was read
	Parts           int   // parts looked at
	PartsSkipped    int   // parts the n-gram filter skipped (no block can match)
	PartsFiltered   int   // parts skipped because no file or place in them passes the filters
	Blocks          int   // blocks scanned
	BlocksSkipped   int   // blocks of looked-at parts that the n-gram filter skipped
	BytesRead       int64 // text bytes scanned or decompressed
	Hits            int   // hits emitted
	Files           int   // files with hits emitted
	// Truncated is set when there were more hits than the cap; CutAt is
	// `<index>\<path>` and CutLabel the place of the last hit emitted:
	// what follows it in search order was not searched.
	Truncated bool
	CutAt     string
	CutLabel  string
	// Cancelled is set when the context ended the search.
	Cancelled bool
	// Problems lists folders and parts that could not be read; the rest
	// was searched.
	Problems []Problem
	// Time per stage: walking the folders, opening indexes, the n-gram
	// filter, scanning blocks, building hits (the last four summed over
	// the workers), and the whole search.
	Walk, Open, Filter, Scan, Build, Total time.Duration
}

// Problem is a folder or part that a search skipped.
type Problem struct {
	Folder  string // `<index>\<rel dir>`
	Rebuild bool   // the folder holds an index of another version
	Err     error
}

// Message returns the Japanese line shown for a problem.
func (p Problem) Message() string {
	if p.Rebuild {
		return fmt.Sprintf(MsgNeedsRebuild, p.Folder)
	}
	return fmt.Sprintf(MsgBrokenPart, p.Folder)
}

// task is one folder to search. The worker that searches it adds hits as
// it finds them; the emitter takes them in search order, so hits stream
// out while later folders are still being searched.
type task struct {
	dir      string
	index    string
	rel      string   // rel dir under the index, `\` separated
	relSegs  []string // FoldKey segments: index, dirs
	only     *partSet // the parts the index summary lets through, or nil: all
	prev     *task    // the task before this one in search order
	problems []Problem
	stats    Stats

	mu       sync.Mutex
	chunks   [][]Hit // guarded by mu: the hits, in chunks that never move
	finished bool    // guarded by mu: no more hits will come

	found    atomic.Int64 // len(hits), for other workers' cap checks
	consumed atomic.Bool  // the emitter is done with this task
	wake     chan struct{}
	done     chan struct{}
}

func newTask(dir, index, rel string, segs []string, only *partSet, prev *task) *task {
	return &task{dir: dir, index: index, rel: rel, relSegs: segs, only: only, prev: prev, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// add appends a hit and wakes the emitter.
func (t *task) add(h Hit) {
	t.mu.Lock()
	n := len(t.chunks)
	if n == 0 || len(t.chunks[n-1]) == cap(t.chunks[n-1]) {
		t.chunks = append(t.chunks, make([]Hit, 0, hitChunk))
		n++
	}
	t.chunks[n-1] = append(t.chunks[n-1], h)
	t.found.Add(1)
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// hitChunk is how many hits a task keeps in one slice.
const hitChunk = 256

// finish marks the task complete.
func (t *task) finish() {
	t.mu.Lock()
	t.finished = true
	t.mu.Unlock()
	close(t.done)
}

// runState is shared by the workers of one search.
type runState struct {
	// emittedBefore counts the hits of the tasks the emitter is done with.
	emittedBefore atomic.Int64
}

// Run searches the body indexes of the given indexes under contentRoot
// (work/store/content) and calls emit for each hit, in the final order
// (folder, file, place, line) and as soon as it is known, so that a caller
// can show the first hits before the search ends. emit returning false
// stops the search. At most q.Max() hits are emitted; Stats.Truncated says
// whether there were more. A cancelled ctx stops the search: Run returns
// the hits so far (already emitted), Stats.Cancelled and ctx.Err().
//
// Only the given indexes are searched (all of them, or those the query
// names); a name in q that is not among them is a *QueryError. Unreadable
// folders and parts are skipped and listed in Stats.Problems.
func Run(ctx context.Context, contentRoot string, indexes []Index, q *Query, emit func(Hit) bool) (Stats, error) {
	start := time.Now()
	var st Stats
	selected, err := selectIndexes(indexes, q)
	if err != nil {
		return st, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()

	workers := max(1, runtime.GOMAXPROCS(0))
	sources := map[string]string{}
	for _, ix := range selected {
		sources[ix.Name] = ix.Source
	}
	p := &pipeline{ctx: ctx, q: q, sources: sources, tasks: make(chan *task, 4*workers), order: make(chan *task, 4*workers), run: &runState{}}
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		p.walk(contentRoot, selected, &st)
	}()
	for i := 0; i < workers; i++ {
		go func() {
			defer wg.Done()
			p.search()
		}()
	}
	stopped := p.emitAll(&st, emit)
	cancelled := ctx.Err() != nil && !stopped && !st.Truncated
	cancel()
	for range p.order {
	}
	wg.Wait()
	for _, t := range p.all {
		st.add(&t.stats)
	}
	st.Total = time.Since(start)
	if cancelled && parent.Err() != nil {
		st.Cancelled = true
		return st, parent.Err()
	}
	return st, nil
}

func (s *Stats) add(o *Stats) {
	s.Folders += o.Folders
	s.FoldersSkipped += o.FoldersSkipped
	s.FoldersFiltered += o.FoldersFiltered
	s.Parts += o.Parts
	s.PartsSkipped += o.PartsSkipped
	s.PartsFiltered += o.PartsFiltered
	s.Blocks += o.Blocks
	s.BlocksSkipped += o.BlocksSkipped
	s.BytesRead += o.BytesRead
	s.Open += o.Open
	s.Filter += o.Filter
	s.Scan += o.Scan
	s.Build += o.Build
}

// selectIndexes returns the indexes to search, sorted by name.
func selectIndexes(indexes []Index, q *Query) ([]Index, error) {
	known := map[string]bool{}
	var out []Index
	for _, ix := range indexes {
		if !workspace.TestStoredIndexName(ix.Name) {
			continue
		}
		known[workspace.FoldKey(ix.Name)] = true
		if q.indexes == nil || q.indexes[workspace.FoldKey(ix.Name)] {
			out = append(out, ix)
		}
	}
	for _, n := range q.opts.Indexes {
		if !known[workspace.FoldKey(n)] {
			msg := fmt.Sprintf(MsgNoIndex, n)
			var names []string
			for _, ix := range indexes {
				names = append(names, ix.Name)
			}
			if near, ok := textfold.Nearest(n, names); ok {
				msg += fmt.Sprintf(MsgDidYouMean, near)
			}
			return nil, &QueryError{Msg: msg, Word: -1, Pos: -1}
		}
	}
	slices.SortFunc(out, func(a, b Index) int { return compareNames(a.Name, b.Name) })
	return out, nil
}

func compareNames(a, b string) int {
	if c := strings.Compare(workspace.FoldKey(a), workspace.FoldKey(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// walker enumerates folders with a body index depth first, in search
// order: a folder before its sub-folders, sub-folders by name. Where the
// index summary still describes a folder, the walker takes the folder's
// sub-folders from it instead of listing the folder, and skips a body
// index none of whose parts can hold the query's keys.
type walker struct {
	ctx  context.Context
	q    *Query
	st   *Stats // the walker's counters (FoldersSkipped)
	sum  *summary.Reader
	cand []uint64 // parts of sum that may match
	// live and indexed (Summary.Live), for a trusted summary: the walk
	// skips a sub-tree that holds nothing to open.
	live    []bool
	indexed []int
	out     func(dir, index, rel string, segs []string, only *partSet) bool
}

// partSet is the parts of one folder that the summary lets through, valid
// while the folder's manifest lists exactly ids.
type partSet struct {
	ids  [][16]byte
	pass []bool
}

// openSummary reads the summary of index and the parts it lets through;
// without a usable summary the walker lists every folder.
func (w *walker) openSummary(contentRoot, index string) {
	s, err := summary.Open(contentRoot, index)
	if err != nil || s == nil {
		return
	}
	cand, err := s.Candidates(w.q.keys)
	if err != nil {
		s.Close()
		return
	}
	w.sum, w.cand = s, cand
	if s.Trusted() && !w.q.listing {
		w.live, w.indexed = s.Live(cand, w.q.searchesNames())
	}
}

func (w *walker) closeSummary() {
	if w.sum != nil {
		w.sum.Close()
	}
	w.sum, w.cand, w.live, w.indexed = nil, nil, nil, nil
}

// dir visits one folder, number at of the summary (-1: not known); false
// stops the walk.
func (w *walker) dir(path, index string, rel []string, segs []string, at int) bool {
	if w.ctx.Err() != nil {
		return false
	}
	key := ""
	if w.q.exclTree != nil || w.q.exclSelf != nil {
		key = strings.Join(segs, `\`)
		if w.q.exclTree[key] {
			return true // unchecked in the search-target tree
		}
	}
	var subs []subFolder
	hasIndex := false
	var only *partSet
	if d := w.summaryDir(rel, at); d != nil {
		for k, name := range d.Subdirs {
			c := d.Children[k]
			if w.live != nil && !w.live[c] {
				w.st.FoldersSkipped += w.indexed[c]
				continue
			}
			subs = append(subs, subFolder{name, c})
		}
		hasIndex = d.HasIndex
		if hasIndex && !d.Opaque {
			only = &partSet{ids: d.PartIDs, pass: make([]bool, len(d.PartIDs))}
			any := false
			for i := range only.pass {
				j := d.FirstPart + i
				only.pass[i] = w.cand[j/64]&(1<<uint(j%64)) != 0
				any = any || only.pass[i]
			}
			// A file path of the folder may match the words: open it
			// for its file-name hits, with no part to scan.
			names := w.q.searchesNames() && (w.q.listing || w.cand[d.NameColumn/64]&(1<<uint(d.NameColumn%64)) != 0)
			if !any && !names {
				hasIndex = false
				w.st.FoldersSkipped++
			}
		}
	} else {
		ents, err := os.ReadDir(path)
		if err != nil {
			return true
		}
		for _, e := range ents {
			n := e.Name()
			if n == format.ManifestName {
				hasIndex = true
			}
			if e.IsDir() && !strings.HasPrefix(n, ".") {
				subs = append(subs, subFolder{n, -1})
			}
		}
	}
	if hasIndex && w.q.folderMayHaveFiles(segs) && !w.q.exclSelf[key] {
		if !w.out(path, index, strings.Join(rel, `\`), segs, only) {
			return false
		}
	}
	slices.SortFunc(subs, func(a, b subFolder) int { return compareNames(a.name, b.name) })
	for _, s := range subs {
		sub := append(slices.Clip(segs), workspace.FoldKey(s.name))
		if !w.q.folderMayDescend(sub) {
			continue
		}
		if !w.dir(filepath.Join(path, s.name), index, append(slices.Clip(rel), s.name), sub, s.at) {
			return false
		}
	}
	return true
}

// subFolder is a sub-folder to visit: its name and its number in the
// summary (-1: not known).
type subFolder struct {
	name string
	at   int
}

// summaryDir returns the summary's entry for the folder (number at, when
// known) when it is still fresh, else nil. A trusted summary's entries
// are taken by number; otherwise the folder is looked up by path, and its
// time checked.
func (w *walker) summaryDir(rel []string, at int) *summary.Dir {
	if w.sum == nil {
		return nil
	}
	if at >= 0 && w.sum.Trusted() {
		return w.sum.Entry(at)
	}
	return w.sum.FreshDir(strings.Join(rel, "/"))
}

// folderMayDescend reports whether the folder with these segments can hold
// files under the --folder prefix (at any depth).
func (q *Query) folderMayDescend(segs []string) bool {
	n := min(len(segs), len(q.folder))
	return slices.Equal(segs[:n], q.folder[:n])
}

// folderMayHaveFiles reports whether files directly in the folder can be
// under the --folder prefix.
func (q *Query) folderMayHaveFiles(segs []string) bool {
	return len(q.folder) <= len(segs)+1 && q.folderMayDescend(segs)
}

// fileInFolder reports whether a file named name in the folder with these
// segments is under the --folder prefix.
func (q *Query) fileInFolder(segs []string, name string) bool {
	if len(q.folder) <= len(segs) {
		return q.folderMayDescend(segs)
	}
	return len(q.folder) == len(segs)+1 && q.folderMayDescend(segs) && q.folder[len(segs)] == workspace.FoldKey(name)
}
