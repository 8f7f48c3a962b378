package indexer

import (
	"runtime"
	"sort"
	"sync"

	"github.com/fumibako/fumibako/internal/bodyindex"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Parallel publishing (issue 21). Publishing a folder (bodyindex.Publish:
// read its per-file folders, fold, encode, write the parts) is the
// coordinator's heaviest step, and while the coordinator published, no
// result was recorded and no file handed out: on text files the workers
// waited for it, one core doing the work of the whole run. The publisher
// runs Body.Publish of different folders on their own goroutines, one per
// CPU, while the coordinator goes on; the coordinator alone still writes
// every other piece of state: when a publish returns, published (start.go)
// rebuilds and republishes an index of another version, logs, queues 出
// and clears the folder's removals, as for a publish made in place.
//
// A folder is handed to the publisher only when nothing in it is pending
// (maybePublish), so no swap touches it while it is published, and a
// publish touches its own folder only. 出 is queued when its publish has
// returned, after the 始 of every file in the folder and, by the group
// commit, after their rows; 出 records of different folders may follow in
// any order, which the seed's reading allows (a folder is unpublished when
// a 始 or 未 has no later 出). A kill while several folders are being
// published leaves each folder's old index or its new one (the publish's
// atomic commit) and no 出 for those that had not returned: the next start
// publishes them again, which is idempotent.
type publisher struct {
	jobs     chan pubJob
	results  chan pubResult
	inFlight map[string]bool // folder keys handed out and not yet returned
	done     sync.WaitGroup
}

type pubJob struct {
	folder  string
	removed []string
	fresh   []bodyindex.Fresh // the folder's batch records (batchfile.go)
}

type pubResult struct {
	folder string
	err    error
}

// startPublisher starts one publishing goroutine per CPU for at most
// folders folders.
func (r *run) startPublisher(folders int) *publisher {
	p := &publisher{jobs: make(chan pubJob, folders+1), results: make(chan pubResult, folders+1), inFlight: map[string]bool{}}
	body, root, trash := r.opt.Body, r.ws.ContentRoot(), r.trash
	for range max(1, runtime.NumCPU()) {
		p.done.Add(1)
		go func() {
			defer p.done.Done()
			for j := range p.jobs {
				p.results <- pubResult{folder: j.folder, err: publishDir(body, root, j.folder, j.removed, trash, j.fresh)}
			}
		}()
	}
	return p
}

// publishAsync hands a folder to the publisher (in place when there is
// none: the start of a run); a folder already being published is not
// handed out twice.
func (r *run) publishAsync(folder string) {
	if r.pub == nil {
		r.publish(folder)
		return
	}
	k := workspace.FoldKey(folder)
	if r.pub.inFlight[k] {
		return
	}
	r.pub.inFlight[k] = true
	r.beginPublish(folder)
	r.pub.jobs <- pubJob{folder: folder, removed: append([]string(nil), r.removals[k]...), fresh: r.freshOf(folder)}
}

// publishReturned completes a publish that returned.
func (r *run) publishReturned(res pubResult) {
	delete(r.pub.inFlight, workspace.FoldKey(res.folder))
	r.published(res.folder, res.err)
}

// drainPublishes waits for every folder handed to the publisher.
func (r *run) drainPublishes() {
	if r.pub == nil {
		return
	}
	for len(r.pub.inFlight) > 0 {
		r.publishReturned(<-r.pub.results)
	}
}

// publishPending publishes every folder still pending, in parallel, and
// waits for them (the end of a run).
func (r *run) publishPending() {
	r.drainPublishes()
	keys := make([]string, 0, len(r.toPublish))
	for k := range r.toPublish {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.publishAsync(r.toPublish[k])
	}
	r.drainPublishes()
}

// stopPublisher ends the publishing goroutines (after drainPublishes).
func (r *run) stopPublisher() {
	if r.pub == nil {
		return
	}
	close(r.pub.jobs)
	r.pub.done.Wait()
	r.pub = nil
}
