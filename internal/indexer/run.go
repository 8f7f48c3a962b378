package indexer

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// BodyIndex is the per-folder body index the coordinator publishes into
// (package bodyindex; declared here so tests can observe publishing).
type BodyIndex interface {
	// Publish merges the per-file folders inside dir into dir's body
	// index, dropping the files named in removed. Idempotent. It is
	// called for several folders at once (publisher.go).
	Publish(dir string, removed []string) error
	// Files returns the file names dir's body index holds, with their
	// place counts. An index of another version gives a
	// *format.RebuildError (package bodyindex/format).
	Files(dir string) (map[string]int, error)
	// Rebuild makes an index of another version readable again, or
	// removes it (its files are then reported by a *bodyindex.LostError
	// and ingested again).
	Rebuild(dir string) error
}

// Options configure one indexing run.
type Options struct {
	Workspace *workspace.Workspace
	Settings  *workspace.Settings
	Body      BodyIndex

	RetryFailed bool
	// ResetList: an ingest list that cannot be read (an
	// *ingestlist.FormatError, which otherwise stops the run) is moved
	// aside (workspace.MoveAside) and the run starts over with an empty
	// list (fumibako index --reset-list).
	ResetList bool
	// OnlyNames, when set, limits the run to these indexes (a row's
	// ［更新］, reference/gui.md §3.1): the other roots are left as they
	// are, as if unchecked. A named root that is unchecked or not in the
	// settings is reported in Summary.OnlySkipped (selectOnlyNames).
	OnlyNames []string
	// Paths, when set, limits the run to these paths of these roots (a
	// watch run over what file-system events named): key the index name,
	// value paths under its root with `\` separators (a file or a folder's
	// subtree; none = the whole root). Other roots are left as they are,
	// as for OnlyNames, and so are the rows outside the paths; files gone
	// from the paths are removed as in a full run (plan.Input.Scope).
	Paths map[string][]string
	// FreeOnly: crawl nothing, only delete the indexes of removed roots
	// (fumibako folder remove --now); every root is left as it is, as
	// for a root OnlyNames does not name.
	FreeOnly bool
	// Lock, when set, is the workspace lock the caller already holds (a
	// watcher holds it for as long as it runs); Run neither takes nor
	// releases it.
	Lock *workspace.Lock

	Workers     int           // 0 = number of CPUs
	FileTimeout time.Duration // 0 = 10 minutes
	MemLimit    int64         // bytes per worker; 0 = a share of the machine's memory (worker.DefaultMemLimit), <0 = none
	Grace       time.Duration // for files in flight after a stop; 0 = 5 s

	// WorkerExe and WorkerArgs start a worker process
	// (`<exe> <args...> __worker ...`); WorkerEnv adds to its environment.
	WorkerExe  string
	WorkerArgs []string
	WorkerEnv  []string

	// Stop asks the run to stop (first Ctrl-C); Kill skips the grace
	// (second Ctrl-C). Either may be nil.
	Stop, Kill <-chan struct{}

	// Confirm, when set, is asked with the plan before anything is
	// ingested (the web UI's confirmation); declining ends the run with
	// Summary.Cancelled (exit 2) and leaves the ingest list as it was.
	Confirm func([]PlanRow) Answer

	// Notices are lines logged first (a settings-recovery notice).
	Notices []string
	Observe Observer
	// Now is a clock seam for tests.
	Now func() time.Time

	// newSlot makes the worker slots (worker.NewSlot; scripted ones in
	// tests).
	newSlot func(cfg worker.Config, scratch string) slot
	// totalMemory reads the machine's memory for the default MemLimit
	// (worker.TotalMemory; a fake in tests).
	totalMemory func() (uint64, bool)
}

// slot is one worker slot as the run uses it: a *worker.Slot, a scripted
// one in tests. Pipeline serves requests in order, reporting each result
// through done (worker.Slot.Pipeline).
type slot interface {
	Pipeline(in <-chan worker.Request, done func(worker.Request, worker.Result), abandon <-chan struct{})
}

// Failure is one failed file of the summary.
type Failure struct {
	RelPath, Msg string
}

// Summary is what a finished run reports.
type Summary struct {
	Succeeded, Failed, Postponed int
	Remaining                    int // targets left 未取り込み (stop, lost root)
	Dropped                      int // vanished between crawl and dispatch
	CloudOnly                    int
	NoLibreOffice                int
	NoText                       int // PDFs without a text layer (scans), ingested with no text
	Stopped                      bool
	Cancelled                    bool
	NothingToDo                  bool
	Failures                     []Failure
	OnlySkipped                  []OnlySkip

	// Freed names the indexes of removed roots the run deleted.
	Freed []string

	// Unavailable counts the files kept 未取り込み because their reader's
	// engine could not be prepared (extract.Unavailable); they are in
	// Remaining too.
	Unavailable int

	// OCR (issue 29): pages read by OCR in this run, and the pages and
	// files that wait for an OCR engine after it (the waiting list).
	OCRPages                         int
	OCRWaitingPages, OCRWaitingFiles int
}

// OnlySkip is a root named in Options.OnlyNames that the run could not
// use, with the reference's reason: 設定にありません or チェックが付いていません.
type OnlySkip struct {
	Name, Reason string
}

// ErrRootLost is the fatal error of a crawl root that vanished mid-run.
type ErrRootLost struct {
	Path      string
	Remaining int
}

func (e *ErrRootLost) Error() string { return sprintf(msgRootLost, e.Path, e.Remaining) }

// FatalError is a fatal error with a seed message (no roots, …).
type FatalError struct{ Msg string }

func (e *FatalError) Error() string { return e.Msg }

// run is the state of one indexing run; only the goroutine of Run
// touches it.
type run struct {
	opt        Options
	rebuilding bool // a folder's body index was converted or rebuilt (rebuild)
	ws         *workspace.Workspace
	now        func() time.Time
	log        *bufio.Writer
	logF       *os.File
	// logHeld: the lines of one file's result are flushed together
	// (record), one write instead of one per line (issue 35).
	logHeld bool

	prev     *ingestlist.List
	folders  []ingestlist.Folder
	rows     []ingestlist.Row
	dropped  map[string]bool
	appender *ingestlist.Appender
	journal  *journal.Writer
	// keepJournal: the journal is one a run with nothing to do left; a
	// run with nothing to do keeps it (idle).
	keepJournal bool
	marked      bool       // the indexes are marked as changing (markChanging)
	batch       batch      // steps waiting for the group commit (commit.go)
	batchFile   batchState // small files' places (batchfile.go)
	lastCommit  time.Time  // when the last group commit was made (commit.go)
	pub         *publisher // folders published in parallel (publisher.go)
	scratch     string
	trash       *content.Trash // published per-file folders, for the workers to write over

	targets  []plan.Target
	progress Progress
	sum      Summary

	// per-folder bookkeeping for publishing as soon as a folder is done
	pendingIn map[string]int      // folder key → targets not finished
	toPublish map[string]string   // folder key → folder (spelling)
	removals  map[string][]string // folder key → file names to drop
	// noPendingRemove: store/pending_remove.tsv is known to be absent (the
	// start found none and the run has added none), so a publish does not
	// look for its folder's removals there (dropPendingRemove).
	noPendingRemove bool
	unpublish       []string // folders the start could not publish
	lostRoot        string
	orphans         []ingestlist.Folder // indexes no root names, kept (dropRemovedIndexes)
	toFree          []workspace.Root    // indexes of removed roots, deleted once confirmed (freeRemoved)
	redo            []journal.Job
	// tries counts the publishes of a folder in a row that the process
	// did not come back from, as the journal told the start (folder key →
	// count; poison.go); startJournal is the previous run's journal while
	// the start publishes into it.
	tries        map[string]int
	startJournal *journal.Writer
	stats        RunStats
	journalErr   error
	fault        *workspace.FaultError // the first workspace fault (fault.go)
	// unavailable holds the run's messages of readers whose engine could
	// not be prepared, each logged once (applyUnavailable).
	unavailable []string
	ocr         ocrState // OCR runs (ocr.go)
	// prepShown is the job whose engine preparation the progress shows
	// (Progress.Preparing; 0 = none).
	prepShown int64
}

// Run performs one indexing run. A fatal error is returned as an error
// (exit 1); a stop gives Summary.Stopped (exit 2).
func Run(opt Options) (sum *Summary, err error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.newSlot == nil {
		opt.newSlot = func(cfg worker.Config, scratch string) slot { return worker.NewSlot(cfg, scratch) }
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.FileTimeout <= 0 {
		opt.FileTimeout = 10 * time.Minute
	}
	if opt.MemLimit == 0 {
		if opt.totalMemory == nil {
			opt.totalMemory = worker.TotalMemory
		}
		total, _ := opt.totalMemory()
		opt.MemLimit = worker.DefaultMemLimit(total, opt.Workers)
	}
	if opt.Grace <= 0 {
		opt.Grace = 5 * time.Second
	}
	ws := opt.Workspace
	if opt.Lock == nil {
		lock, err := ws.Lock()
		if err != nil {
			if f := workspace.WriteFault(err); f != nil {
				return nil, f // a read-only workspace: the lock file cannot be opened for writing
			}
			return nil, err
		}
		defer lock.Release()
	}

	r := &run{opt: opt, ws: ws, now: opt.Now, dropped: map[string]bool{},
		pendingIn: map[string]int{}, toPublish: map[string]string{}, removals: map[string][]string{}, tries: map[string]int{}}
	// The log is opened only with the lock held, so a second instance never
	// wipes a running instance's log (reference/indexing.md §5.1).
	if err := r.openLog(); err != nil {
		return nil, r.check(err)
	}
	defer r.closeLog()
	for _, n := range opt.Notices {
		r.logf(Warn, "%s", n)
	}
	defer func() {
		if err != nil {
			r.logf(Error, "＜エラー＞")
			r.logf(Error, "%s", err.Error())
		}
	}()
	if err := r.recoverImport(); err != nil {
		return nil, r.check(err)
	}
	opt = r.opt
	noRoots := opt.nothingToCrawl()
	if noRoots != nil {
		if !HasRemovedIndexes(ws, opt.Settings) {
			return nil, noRoots
		}
		r.opt.FreeOnly = true
	}
	if err := r.prepareScratch(); err != nil {
		return nil, r.check(err)
	}
	defer workspace.RemoveAll(r.scratch)
	r.trash = content.NewTrash(filepath.Join(r.scratch, "trash"))

	if err := r.start(); err != nil {
		return nil, err
	}
	r.startOCR()
	if err := r.crawlAndDecide(); err != nil {
		r.finish()
		if errors.Is(err, errCancelled) {
			r.phase(PhaseFinish)
			return &r.sum, nil
		}
		return nil, err
	}
	r.ingest()
	if err := r.finish(); err != nil {
		return &r.sum, err
	}
	r.summary()
	if noRoots != nil {
		r.logf(Warn, "%s", noRoots.Error()) // freed, with nothing to crawl
	}
	if r.lostRoot != "" {
		return &r.sum, &ErrRootLost{Path: r.lostRoot, Remaining: r.sum.Remaining}
	}
	return &r.sum, nil
}

// scratchName is this process's scratch folder name: <host>-<pid>, so
// several PCs can share a workspace and each cleans only its own dead runs.
func scratchName(pid int) string {
	return hostKey() + "-" + fmt.Sprint(pid)
}

func hostKey() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "host"
	}
	h = strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, h)
	return strings.ReplaceAll(h, "-", "_")
}

// prepareScratch removes the scratch folders of this host's dead runs and
// creates this run's.
func (r *run) prepareScratch() error {
	root := r.ws.TmpRoot()
	entries, _ := os.ReadDir(root)
	prefix := hostKey() + "-"
	for _, e := range entries {
		pidText, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(pidText, &pid); err != nil || pid == os.Getpid() || worker.ProcessAlive(pid) {
			continue
		}
		if err := workspace.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			r.logf(Warn, "    作業フォルダを削除できませんでした: %s", filepath.Join(root, e.Name()))
		}
	}
	r.scratch = filepath.Join(root, scratchName(os.Getpid()))
	if err := workspace.MkdirAll(r.scratch); err != nil {
		return fmt.Errorf("indexer: create scratch %s: %w", r.scratch, err)
	}
	return nil
}

// nothingToCrawl returns the fatal error of a run with no root to crawl
// (none registered, none checked among those named), nil otherwise. With
// nothing to crawl, a removed root's index is still freed (issue 30:
// removing the last folder freed nothing before): the run frees it, logs
// this error as a warning and ends as done.
func (o *Options) nothingToCrawl() error {
	enabled := 0
	for _, root := range o.Settings.Roots {
		if root.IsEnabled() && o.named(root.Name) {
			enabled++
		}
	}
	switch {
	case len(o.Settings.Roots) == 0:
		return &FatalError{Msg: MsgNoRoots}
	case enabled == 0 && !o.FreeOnly:
		return &FatalError{Msg: MsgNoEnabled}
	}
	return nil
}

// named reports whether the run covers the index name: every index, or
// those in OnlyNames.
func (o *Options) named(name string) bool {
	if o.FreeOnly {
		return false
	}
	if _, ok := o.scope(name); o.Paths != nil && !ok {
		return false
	}
	return len(o.OnlyNames) == 0 || workspace.NameIn(o.OnlyNames, name)
}

// scope returns Options.Paths' entry of an index (its key compared as
// names are): the paths under the root (none: the whole root), ok when
// the index is named.
func (o *Options) scope(name string) (paths []string, ok bool) {
	for n, p := range o.Paths {
		if workspace.FoldKey(n) == workspace.FoldKey(name) {
			return p, true
		}
	}
	return nil, false
}

// onlySkipped lists the names of OnlyNames the run cannot use.
func (o *Options) onlySkipped() []OnlySkip {
	var out []OnlySkip
	for _, n := range o.OnlyNames {
		root, _, ok := o.Settings.Root(n)
		switch {
		case !ok:
			out = append(out, OnlySkip{Name: n, Reason: reasonNotInSettings})
		case !root.IsEnabled():
			out = append(out, OnlySkip{Name: n, Reason: reasonUnchecked})
		}
	}
	return out
}
