package search

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// pipeline is one search: the walker sends each folder to search to the
// workers (tasks) and, in search order, to the emitter (order).
type pipeline struct {
	ctx context.Context
	q   *Query
	// sources maps an index name to its source folder (Index.Source),
	// from which the emitter fills Hit.FullPath.
	sources map[string]string
	tasks   chan *task
	order   chan *task
	run     *runState
	all     []*task // every task, for the statistics (the walker's until it returns)
}

// walk enumerates the folders of the selected indexes into the tasks, in
// search order, until the walk ends or the search is stopped.
func (p *pipeline) walk(contentRoot string, selected []Index, st *Stats) {
	defer close(p.tasks)
	defer close(p.order)
	var prev *task
	w := walker{ctx: p.ctx, q: p.q, st: st, out: func(dir, index, rel string, segs []string, only *partSet) bool {
		t := newTask(dir, index, rel, segs, only, prev)
		prev = t
		p.all = append(p.all, t)
		select {
		case p.order <- t:
		case <-p.ctx.Done():
			return false
		}
		select {
		case p.tasks <- t:
			return true
		case <-p.ctx.Done():
			t.finish()
			return false
		}
	}}
	t0 := time.Now()
	for _, ix := range selected {
		w.openSummary(contentRoot, ix.Name)
		ok := w.dir(filepath.Join(contentRoot, ix.Name), ix.Name, nil, []string{workspace.FoldKey(ix.Name)}, 0)
		w.closeSummary()
		if !ok {
			break
		}
	}
	st.Walk = time.Since(t0)
}

// search is one worker: it searches the folders of the tasks it takes.
func (p *pipeline) search() {
	s := searcher{ctx: p.ctx, q: p.q, run: p.run}
	for t := range p.tasks {
		if p.ctx.Err() == nil {
			s.folder(t)
		}
		t.finish()
	}
}

// emitAll emits the hits of the tasks in search order as they come, up to
// the cap; it reports whether emit asked to stop.
func (p *pipeline) emitAll(st *Stats, emit func(Hit) bool) (stopped bool) {
	var last *Hit
	defer func() {
		if st.Truncated && last != nil {
			st.CutAt, st.CutLabel = last.Path(), last.Label
		}
	}()
	for t := range p.order {
		next, end := p.emitTask(t, st, &last, emit)
		if end != taskDone {
			return end == emitStopped
		}
		st.Problems = append(st.Problems, t.problems...)
		t.consumed.Store(true)
		p.run.emittedBefore.Add(int64(next))
		t.mu.Lock()
		t.chunks = nil
		t.mu.Unlock()
	}
	return false
}

// How emitting one task's hits ended.
const (
	taskDone    = iota // every hit of the task was emitted
	emitStopped        // emit returned false
	searchEnded        // the cap was reached or the context ended
)

// emitTask emits the hits of one task as the worker adds them and returns
// how many it emitted and how it ended.
func (p *pipeline) emitTask(t *task, st *Stats, last **Hit, emit func(Hit) bool) (next, end int) {
	var chunks [][]Hit
	for {
		// Copy the chunk headers: the worker updates them in place.
		t.mu.Lock()
		chunks = append(chunks[:0], t.chunks...)
		fin := t.finished
		t.mu.Unlock()
		for {
			ci, off := next/hitChunk, next%hitChunk
			if ci >= len(chunks) || off >= len(chunks[ci]) {
				break
			}
			h := &chunks[ci][off]
			if p.q.max > 0 && st.Hits == p.q.max {
				st.Truncated = true
				return next, searchEnded
			}
			if *last == nil || h.Index != (*last).Index || h.RelPath != (*last).RelPath {
				st.Files++
			}
			st.Hits++
			*last = h
			next++
			if src := p.sources[h.Index]; src != "" && h.FullPath == "" {
				h.FullPath = SourcePath(src, h.RelPath)
			}
			if !emit(*h) {
				return next, emitStopped
			}
		}
		if fin {
			return next, taskDone
		}
		select {
		case <-t.wake:
		case <-t.done:
		case <-p.ctx.Done():
			return next, searchEnded
		}
	}
}
