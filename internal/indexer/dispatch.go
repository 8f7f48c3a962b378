package indexer

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// job is one target in flight.
type job struct {
	pos    int // 1-based position in target order ([i/N])
	target plan.Target
	stage  string
	slot   int
	// recycled: stage is a published per-file folder from the trash,
	// there whatever the worker answers.
	recycled bool
}

type result struct {
	id  int64
	res worker.Result
}

// ingest hands the targets to worker processes and records each result
// (reference/indexing.md §5.5).
func (r *run) ingest() {
	total := len(r.targets)
	r.progress = Progress{Phase: PhaseIngest, Total: total, Remaining: total}
	for _, t := range r.targets {
		k := workspace.FoldKey(content.FolderOf(t.File.RelPath))
		r.pendingIn[k]++
		r.toPublish[k] = content.FolderOf(t.File.RelPath)
	}
	// Every folder this run may publish is in toPublish now (the
	// publisher's queues hold them all, so handing out never blocks).
	r.pub = r.startPublisher(len(r.toPublish))
	if total == 0 {
		r.logf(Good, msgNothingToDo)
		r.sum.NothingToDo = true
		return
	}
	workers := r.opt.Workers
	if workers > total {
		workers = total
	}
	r.logf(Info, "")
	if workers > 1 {
		r.logf(Info, msgStart, total, workers)
	} else {
		r.logf(Info, msgStartOne, total)
	}
	r.logf(Info, msgStartTimeout, worker.DurationText(r.opt.FileTimeout))
	l := r.startLanes(workers)
	defer l.close()

	stopping := false
	var grace, commitDue <-chan time.Time
	stopCh, killCh := r.opt.Stop, r.opt.Kill
	for {
		if !stopping {
			r.dispatch(l)
		}
		if r.fault != nil {
			// A workspace fault stops the run as a stop without grace
			// would: the files in flight stay 未取り込み.
			l.abandonAll()
		}
		if l.inFlight == 0 && (stopping || r.fault != nil || r.lostRoot != "" || l.next >= total) {
			break
		}
		// Commit on idle (commit.go): when no result is waiting and the
		// last commit is commitEvery old, or the batch is full, make the
		// finished files durable before blocking; idle sooner, wake for
		// it then.
		if n := r.batch.size(); n > 0 {
			idle := len(l.results) == 0 && len(r.pub.results) == 0
			since := time.Since(r.lastCommit)
			switch {
			case n >= maxBatch || idle && since >= commitEvery:
				r.commit()
				commitDue = nil
			case idle && commitDue == nil:
				commitDue = time.After(commitEvery - since)
			}
		}
		select {
		case <-commitDue:
			commitDue = nil
		case res := <-l.results:
			// A job's interim messages were queued before its result.
			r.takeInterim(l)
			j := l.finished(res.id)
			r.record(j, res.res)
			if j.target.Count > 0 {
				// A file interrupted before is made durable at once
				// (commit.go): a kill within the commit pacing must
				// not count it as interrupted a second time.
				r.commit()
				commitDue = nil
			}
		case <-l.interimReady:
			r.takeInterim(l)
		case res := <-r.pub.results:
			r.publishReturned(res)
		case <-stopCh:
			stopCh = nil
			if !stopping {
				stopping = true
				r.logf(Warn, msgStopping, total-r.progress.Done)
				grace = time.After(r.opt.Grace)
			}
		case <-killCh:
			killCh = nil
			stopping = true
			l.abandonAll()
		case <-grace:
			l.abandonAll()
		}
	}
	r.sum.Stopped = stopping
	// Files never dispatched stay 未取り込み.
	r.sum.Remaining = total - r.progress.Done - r.sum.Dropped - r.sum.Postponed
}

// lanes are the worker slots of a run and what is in flight on each.
// Each slot keeps up to worker.Depth files in its worker's pipe, so a
// worker never idles while the run records a result, and is handed files
// in groups: filled up, then left until half of its files are answered
// (refill), so that the worker takes a group in one wake-up and answers
// it in one write (worker.Depth).
type lanes struct {
	jobs      []chan worker.Request
	results   chan result
	abandon   chan struct{} // closed when files in flight must be killed
	abandoned bool
	slotsDone sync.WaitGroup

	// interim holds the slots' interim messages (OCR pages, progress)
	// until the run takes them (takeInterim); interimReady says some wait.
	interimMu    sync.Mutex
	interim      []interimMsg
	interimReady chan struct{}

	load     []int   // files in each slot's pipe
	bytes    []int64 // their sources' sizes
	filling  []bool  // the slot is being filled up (free)
	alone    []bool  // the slot runs an interrupted file with nothing behind it
	byID     map[int64]*job
	next     int // targets handed out or dropped so far
	inFlight int
}

// interimMsg is an interim message of the job with ID id.
type interimMsg struct {
	id int64
	m  worker.Interim
}

// takeInterim applies the interim messages waiting, in order.
func (r *run) takeInterim(l *lanes) {
	l.interimMu.Lock()
	msgs := l.interim
	l.interim = nil
	l.interimMu.Unlock()
	for _, im := range msgs {
		r.ocrInterim(im.id, im.m)
	}
}

// startLanes starts one slot per worker.
func (r *run) startLanes(workers int) *lanes {
	cfg := worker.Config{Exe: r.opt.WorkerExe, Args: r.opt.WorkerArgs, Env: r.opt.WorkerEnv,
		Timeout: r.opt.FileTimeout, MemLimit: r.opt.MemLimit,
		OCRProgram: r.ocr.program, OCRCache: r.ws.OCRCache(),
		OCRPageTimeout: time.Duration(r.opt.Settings.OCRSecondsPerPage) * time.Second}
	if cfg.MemLimit < 0 {
		cfg.MemLimit = 0
	}
	l := &lanes{jobs: make([]chan worker.Request, workers), results: make(chan result, workers*worker.Depth),
		abandon: make(chan struct{}), load: make([]int, workers), bytes: make([]int64, workers), filling: make([]bool, workers), alone: make([]bool, workers), byID: map[int64]*job{}}
	// Interim messages are queued without blocking the slot (results has
	// room for one result per job in flight and no more: a slot blocked on
	// it would never take the request the run is handing it); the run
	// takes them before any result, so a page is cached before its file's
	// result is applied.
	l.interimReady = make(chan struct{}, 1)
	cfg.Interim = func(req worker.Request, m worker.Interim) {
		l.interimMu.Lock()
		l.interim = append(l.interim, interimMsg{id: req.ID, m: m})
		l.interimMu.Unlock()
		select {
		case l.interimReady <- struct{}{}:
		default:
		}
	}
	for i := range l.jobs {
		// Room for a slot's whole pipe (free never hands a slot more):
		// the run hands a file over without waiting for the slot's
		// goroutine to be scheduled and take it, a rendezvous per file
		// that the run's loop waited on while the publishers held the
		// CPUs (issue 35).
		l.jobs[i] = make(chan worker.Request, worker.Depth)
		slot := r.opt.newSlot(cfg, filepath.Join(r.scratch, fmt.Sprintf("w%d", i+1)))
		l.slotsDone.Add(1)
		go func(in <-chan worker.Request) {
			defer l.slotsDone.Done()
			slot.Pipeline(in, func(req worker.Request, res worker.Result) {
				l.results <- result{id: req.ID, res: res}
			}, l.abandon)
		}(l.jobs[i])
	}
	return l
}

// close ends the slots and waits for them.
func (l *lanes) close() {
	for _, c := range l.jobs {
		close(c)
	}
	l.slotsDone.Wait()
}

// abandonAll has the slots kill the files in flight (they end Stopped).
func (l *lanes) abandonAll() {
	if !l.abandoned {
		l.abandoned = true
		close(l.abandon)
	}
}

// refill is the load at or below which a slot is filled up again.
const refill = worker.Depth / 2

// pipeBytes bounds the source bytes in one slot's pipe beyond its first
// file: the answers of a group wait in the coordinator's channels until
// the run takes them, and eight large text files per worker would hold up
// to eight times content.InlineMax there. Small files fill the pipe; two
// files of a few MB are in flight as before groups.
const pipeBytes = 8 << 20

// free returns the slot a target goes to, or -1 when none has room: a
// file interrupted before runs alone on an idle worker with nothing queued
// behind it, so that a file which takes the whole run down again does not
// drag an innocent neighbour to the interrupt limit with it; otherwise the
// least loaded slot that is being filled or is down to refill.
func (l *lanes) free(t plan.Target) int {
	slot := -1
	for i, n := range l.load {
		if l.alone[i] || n >= worker.Depth || n > refill && !l.filling[i] || t.Count > 0 && n > 0 ||
			n > 0 && l.bytes[i]+t.File.Size > pipeBytes {
			continue
		}
		if slot < 0 || n < l.load[slot] {
			slot = i
		}
	}
	return slot
}

// finished takes the job of a result out of its slot's load.
func (l *lanes) finished(id int64) *job {
	j := l.byID[id]
	delete(l.byID, id)
	l.inFlight--
	l.load[j.slot]--
	l.bytes[j.slot] -= j.target.File.Size
	if l.load[j.slot] == 0 {
		l.alone[j.slot] = false
	}
	return j
}

// dispatch hands targets out while a slot has room, idle slots first.
func (r *run) dispatch(l *lanes) {
	inline := r.inline()
	for r.fault == nil && r.lostRoot == "" && l.next < len(r.targets) {
		t := r.targets[l.next]
		slot := l.free(t)
		if slot < 0 {
			return
		}
		l.next++
		j := &job{pos: l.next, target: t, slot: slot,
			// The staged per-file folder is renamed to the file's name by
			// the swap, so it needs no folder of its own around it: one
			// folder less to create and delete per file (ext4 spends most
			// of a small file's time finding free inodes, issue 21).
			stage: filepath.Join(r.scratch, fmt.Sprintf("w%d", slot+1), "stage", fmt.Sprint(l.next))}
		// Rule 2: 始 before the hand-off. Without it (a workspace
		// fault) the file is not handed off and stays 未取り込み.
		if err := r.journal.Start(t.File.RelPath, t.Count+1); err != nil {
			if r.noteJournalErr(err); r.fault != nil {
				return
			}
		}
		crashPoint("after-start-record")
		r.progress.Current = t.File.RelPath
		r.update()
		l.byID[int64(j.pos)] = j
		// A published per-file folder, if there is one, becomes the stage:
		// the worker writes over its files (content.Trash).
		j.recycled = r.trash.Reuse(j.stage)
		l.jobs[slot] <- worker.Request{ID: int64(j.pos), Path: t.File.Path, Name: filepath.Base(t.File.Path), Stage: j.stage, Recycled: j.recycled,
			Inline: inline, ModTime: t.File.ModTime.UnixNano(), Size: t.File.Size, HiddenSheets: r.hiddenSheetsOf(t.File.RelPath)}
		l.load[slot]++
		l.bytes[slot] += t.File.Size
		l.filling[slot] = l.load[slot] < worker.Depth
		l.alone[slot] = t.Count > 0
		l.inFlight++
	}
}

func (r *run) rootOf(rel string) *workspace.Root {
	name, _ := ingestlist.SplitRelPath(rel)
	if root, _, ok := r.opt.Settings.Root(name); ok {
		return &root
	}
	return nil
}

// finishedCount is the number of files this run has finished, the i of
// the log's [i/N] head: ingested, failed, postponed or vanished.
func (r *run) finishedCount() int {
	return r.progress.Done + r.sum.Postponed + r.sum.Dropped
}

func failedRow(row ingestlist.Row, now, msg string) ingestlist.Row {
	row.State = ingestlist.Failed
	row.Error = ingestlist.CleanError(msg)
	row.TSVCount, row.HasTSVCount = 0, false
	row.IngestedAt = now
	row.Version = 0
	return row
}

// maybePublish publishes a folder as soon as nothing in it is pending.
func (r *run) maybePublish(fk string) {
	if r.pendingIn[fk] > 0 {
		return
	}
	folder, ok := r.toPublish[fk]
	if !ok {
		return
	}
	r.publishAsync(folder)
}
