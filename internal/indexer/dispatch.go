package indexer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
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
	r.logf(Info, msgStart, total, workers, timeoutText(r.opt.FileTimeout))
	for _, t := range r.targets {
		k := workspace.FoldKey(content.FolderOf(t.File.RelPath))
		r.pendingIn[k]++
		r.toPublish[k] = content.FolderOf(t.File.RelPath)
	}
	l := r.startLanes(workers)
	defer l.close()

	stopping := false
	var grace <-chan time.Time
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
		select {
		case res := <-l.results:
			r.record(l.finished(res.id), res.res)
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
// worker never idles while the run records a result.
type lanes struct {
	jobs      []chan worker.Request
	results   chan result
	abandon   chan struct{} // closed when files in flight must be killed
	abandoned bool
	slotsDone sync.WaitGroup

	load     []int  // files in each slot's pipe
	alone    []bool // the slot runs an interrupted file with nothing behind it
	byID     map[int64]*job
	next     int // targets handed out or dropped so far
	inFlight int
}

// startLanes starts one slot per worker.
func (r *run) startLanes(workers int) *lanes {
	cfg := worker.Config{Exe: r.opt.WorkerExe, Args: r.opt.WorkerArgs, Env: r.opt.WorkerEnv,
		Timeout: r.opt.FileTimeout, MemLimit: r.opt.MemLimit}
	if cfg.MemLimit < 0 {
		cfg.MemLimit = 0
	}
	l := &lanes{jobs: make([]chan worker.Request, workers), results: make(chan result, workers*worker.Depth),
		abandon: make(chan struct{}), load: make([]int, workers), alone: make([]bool, workers), byID: map[int64]*job{}}
	for i := range l.jobs {
		l.jobs[i] = make(chan worker.Request)
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

// free returns the slot a target goes to, or -1 when none has room: a
// file interrupted before runs alone on an idle worker with nothing queued
// behind it, so that a file which takes the whole run down again does not
// drag an innocent neighbour to the interrupt limit with it; otherwise the
// least loaded slot with room.
func (l *lanes) free(t plan.Target) int {
	slot := -1
	for i, n := range l.load {
		if l.alone[i] || n >= worker.Depth || t.Count > 0 && n > 0 {
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
	if l.load[j.slot] == 0 {
		l.alone[j.slot] = false
	}
	return j
}

// dispatch hands targets out while a slot has room, idle slots first.
func (r *run) dispatch(l *lanes) {
	for r.fault == nil && r.lostRoot == "" && l.next < len(r.targets) {
		t := r.targets[l.next]
		slot := l.free(t)
		if slot < 0 {
			return
		}
		l.next++
		if !r.sourceReady(t, l.next) {
			continue
		}
		j := &job{pos: l.next, target: t, slot: slot,
			stage: filepath.Join(r.scratch, fmt.Sprintf("w%d", slot+1), "stage", fmt.Sprint(l.next), filepath.Base(t.File.Path))}
		// Rule 2: 始 before the hand-off. Without it (a workspace
		// fault) the file is not handed off and stays 未取り込み.
		if err := r.journal.Start(t.File.RelPath, t.Count+1); err != nil {
			if r.noteFault(err) {
				return
			}
			if r.journalErr == nil {
				r.journalErr = err
				r.logf(Error, "ジャーナルに書き込めません: %v", err)
			}
		}
		crashPoint("after-start-record")
		r.progress.Current = t.File.RelPath
		r.update()
		l.byID[int64(j.pos)] = j
		l.jobs[slot] <- worker.Request{ID: int64(j.pos), Path: t.File.Path, Name: filepath.Base(t.File.Path), Stage: j.stage}
		l.load[slot]++
		l.alone[slot] = t.Count > 0
		l.inFlight++
	}
}

// sourceReady checks the source just before dispatch: a vanished file is
// dropped (not failed); a vanished root stops the dispatch.
func (r *run) sourceReady(t plan.Target, pos int) bool {
	if _, err := os.Stat(t.File.Path); err == nil {
		return true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return true // let the worker report it
	}
	root := r.rootOf(t.File.RelPath)
	if root != nil {
		if _, err := os.Stat(root.Path); err != nil {
			r.lostRoot = root.Path
			return false
		}
	}
	r.sum.Dropped++
	r.fileLogf(t.File.RelPath, Info, msgFileHead, r.finishedCount(), len(r.targets), t.File.RelPath)
	r.fileLogf(t.File.RelPath, Warn, msgVanished)
	r.finished(t.File.RelPath, OutcomeVanished, "")
	k := workspace.FoldKey(t.File.RelPath)
	r.dropped[k] = true
	folder := content.FolderOf(t.File.RelPath)
	content.RemoveFileFolder(content.Dir(r.ws.ContentRoot(), t.File.RelPath))
	fk := workspace.FoldKey(folder)
	r.removals[fk] = append(r.removals[fk], content.BaseOf(t.File.RelPath))
	r.pendingIn[fk]--
	r.maybePublish(fk)
	return false
}

func (r *run) rootOf(rel string) *workspace.Root {
	name, _ := ingestlist.SplitRelPath(rel)
	if root, _, ok := r.opt.Settings.Root(name); ok {
		return &root
	}
	return nil
}

// record applies one worker result: swap the TSVs in, append the row,
// publish the folder when nothing in it is pending.
func (r *run) record(j *job, res worker.Result) {
	t := j.target
	k := workspace.FoldKey(t.File.RelPath)
	i, ok := r.rowAt[k]
	if !ok {
		r.rows = append(r.rows, plan.FreshRow(t.File))
		i = len(r.rows) - 1
		r.rowAt[k] = i
	}
	row := r.rows[i]
	now := ingestlist.FormatFileTime(r.now())
	var lines []string
	detail := "" // the English chain, for the log only (logDetail)
	level := Info
	counted := true
	outcome := OutcomeDone
	switch {
	case res.Outcome == worker.Stopped:
		// Abandoned by a stop: the current row is appended so the journal
		// reads the job as finished, and the file stays 未取り込み.
		counted = false
		outcome = OutcomeStopped
	case res.Outcome == worker.Faulted:
		// The worker could not write the workspace: the run's fault, the
		// file stays 未取り込み with its current row (fault.go).
		r.noteFault(res.Fault)
		lines = append(lines, msgFaultKept)
		detail = res.Detail
		level = Warn
		counted = false
		outcome = OutcomeStopped
	case res.Outcome == worker.Finished && res.Response.OK:
		dst := content.Dir(r.ws.ContentRoot(), t.File.RelPath)
		// Rule 3: the TSVs are in place before the 済 row. The crawled
		// time and size go with them (search tells a changed file).
		err := content.WriteSource(j.stage, content.Source{ModTime: t.File.ModTime, Size: t.File.Size})
		if err == nil {
			err = content.Swap(j.stage, dst)
		}
		if err != nil {
			if r.noteFault(err) {
				lines = append(lines, msgFaultKept)
				level = Warn
				counted = false
				break
			}
			row = failedRow(row, now, msgSwapFailed)
			lines = append(lines, sprintf(msgFileFailed, row.Error))
			detail = err.Error()
			level = Error
			break
		}
		crashPoint("after-swap")
		lines = append(lines, res.Response.Log...)
		lines = append(lines, sprintf(msgTSVCount, res.Response.TSVCount))
		row.State, row.Error = ingestlist.Done, ""
		row.TSVCount, row.HasTSVCount = res.Response.TSVCount, true
		row.IngestedAt = now
		row.Version = extract.Version(t.File.RelPath)
		r.sum.Succeeded++
		if res.Response.NoText {
			r.sum.NoText++
		}
	case res.Outcome == worker.Finished && res.Response.Postponed:
		// Seed: Postponed stays 未取り込み with the reason; the previous
		// row's TSV数, date and version stay.
		if prev, ok := r.prev.Lookup(t.File.RelPath); ok {
			row.TSVCount, row.HasTSVCount, row.IngestedAt, row.Version = prev.TSVCount, prev.HasTSVCount, prev.IngestedAt, prev.Version
		}
		row.State, row.Error = ingestlist.Pending, ingestlist.CleanError(res.Response.Msg)
		lines = append(lines, res.Response.Log...)
		lines = append(lines, sprintf(msgPostponed, row.Error))
		detail = res.Response.Detail
		level = Warn
		r.sum.Postponed++
		if res.Response.Msg == extract.MsgNoLibreOffice {
			r.sum.NoLibreOffice++
		}
		r.sum.Failures = append(r.sum.Failures, Failure{RelPath: t.File.RelPath, Msg: row.Error})
		r.progress.Failed++
		counted = false
		outcome = OutcomePostponed
	default:
		msg := res.Msg
		detail = res.Detail
		if res.Outcome == worker.Finished {
			msg, detail = res.Response.Msg, res.Response.Detail
			lines = append(lines, res.Response.Log...)
		}
		row = failedRow(row, now, msg)
		lines = append(lines, sprintf(msgFileFailed, row.Error))
		level = Error
	}
	if row.State == ingestlist.Failed {
		outcome = OutcomeFailed
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, Failure{RelPath: t.File.RelPath, Msg: row.Error})
		r.progress.Failed++
	}
	workspace.RemoveAll(filepath.Dir(j.stage))
	r.rows[i] = row
	if err := r.appender.Append(row); err != nil && !r.noteFault(err) {
		r.logf(Error, "取り込み一覧に書き込めません: %v", err)
	}
	if counted {
		r.progress.Done++
	}
	r.progress.Remaining = len(r.targets) - r.progress.Done
	r.progress.Current = t.File.RelPath
	// The head counts finished files, so the numbers run in order
	// whatever order the workers finish in.
	r.fileLogf(t.File.RelPath, Info, msgFileHead, r.finishedCount(), len(r.targets), t.File.RelPath)
	for _, l := range lines {
		r.fileLogf(t.File.RelPath, level, "%s", l)
	}
	r.logDetail(detail)
	reason := ""
	if outcome == OutcomeFailed || outcome == OutcomePostponed {
		reason = row.Error
	}
	r.finished(t.File.RelPath, outcome, reason)
	fk := workspace.FoldKey(content.FolderOf(t.File.RelPath))
	r.pendingIn[fk]--
	r.maybePublish(fk)
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
	r.publish(folder)
}

func timeoutText(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d 分", int(d/time.Minute))
	}
	return fmt.Sprintf("%d 秒", int((d+time.Second-1)/time.Second))
}
