package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/workspace"
)

// ServeConfig is what a worker process is given (Serve).
type ServeConfig struct {
	Scratch  string // the worker's private folder
	MemLimit int64  // the worker's memory cap in bytes (0 = none)
	// Parent is the coordinator's process id; the worker ends once that
	// process is gone (0: not watched).
	Parent int
	// Exit ends the process at once. Serve calls it, from another
	// goroutine and after killing the converters it started, when the
	// coordinator is gone: its process ended (Parent), or the request
	// pipe closed while a request was outstanding (the coordinator closes
	// it only with none outstanding, or while it kills the worker). nil:
	// nothing is killed or ended (tests).
	Exit func()
	// OCR returns the OCR engine (issue 29), or nil when none is
	// installed: then files that need OCR are read without those pages
	// and say how many wait (Response.OCRWaiting). It is called once, at
	// the first page that needs OCR (extract.OCR.Engine), not for every
	// worker of every run. nil: no engine.
	OCR func() extract.Recognizer
	// OCRCache is the OCR page cache folder (workspace.OCRCache), read
	// only; "" reads no cache.
	OCRCache string
}

// Serve is the worker's main loop: read requests from r until EOF, extract
// each file and answer on w.
//
// A worker ends by itself once its coordinator is gone, on every system
// and whatever the Job Object or Pdeathsig do (issue 36: Windows workers
// outlived a killed coordinator where the job's kill-on-close did not
// fire): it watches the coordinator's process (watchParent) and the end of
// its request pipe, read by a goroutine of its own so that a file being
// extracted (or hung) does not keep it from seeing the end.
func Serve(ctx context.Context, r io.Reader, w io.Writer, cfg ServeConfig) error {
	if os.Getenv("GOMAXPROCS") == "" {
		// A worker reads one file at a time and the coordinator runs one
		// worker per CPU: a second P only adds spinning threads and
		// futex wake-ups, which cost a tenth of a small-file build's
		// CPU (issue 35).
		runtime.GOMAXPROCS(1)
	}
	if cfg.MemLimit > 0 {
		// A soft limit makes the GC work harder near the cap; the
		// supervisor's RSS watch is the hard one.
		debug.SetMemoryLimit(cfg.MemLimit * 8 / 10)
	}
	// Files LibreOffice converts go through one LibreOffice kept running
	// for the worker's life (libreoffice/warm.go); it ends with the worker.
	libreoffice.KeepWarm()
	defer libreoffice.CloseWarm()
	var once sync.Once
	gone := func() {
		once.Do(func() {
			if cfg.Exit != nil {
				libreoffice.KillConverters()
				cfg.Exit()
			}
		})
	}
	if cfg.Parent > 0 {
		watchParent(cfg.Parent, gone)
	}
	// outstanding counts the requests read and not yet answered; it
	// drops before the answer is written, so a pipe the coordinator
	// closes after its last answer never looks like its end.
	var outstanding atomic.Int64
	reqs := make(chan []byte, Depth+1)
	readErr := make(chan error, 1)
	go func() {
		in := bufio.NewScanner(r)
		in.Buffer(make([]byte, 64*1024), 16<<20)
		for in.Scan() {
			outstanding.Add(1)
			reqs <- append([]byte(nil), in.Bytes()...)
		}
		readErr <- in.Err()
		close(reqs)
		if outstanding.Load() > 0 {
			gone()
		}
	}()
	out := &sender{enc: json.NewEncoder(w), w: w}
	engine := sync.OnceValue(func() extract.Recognizer {
		if cfg.OCR == nil {
			return nil
		}
		return cfg.OCR()
	})
	clearScratch(filepath.Join(cfg.Scratch, "x"))
	// frame is the buffer of the last inline answer's places, written
	// before the next request is read: each small file's frame goes
	// into it instead of a new buffer of its size (issue 35).
	var frame []byte
	// readBuffer takes each small file the router reads whole
	// (extract.Options.ReadBuffer), its result done with before the next.
	readBuffer := make([]byte, readBufferSize)
	for line := range reqs {
		var req Request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("worker: bad request %q: %w", line, err)
		}
		ocr := newOCRSession(req.ID, engine, cfg.OCRCache, out)
		resp := handle(ctx, req, cfg.Scratch, cfg.MemLimit, ocr, frame, readBuffer)
		outstanding.Add(-1)
		if err := out.sendResponse(resp, len(reqs) > 0); err != nil {
			return fmt.Errorf("worker: write response: %w", err)
		}
		if resp.Inline && cap(resp.Places) <= frameKept {
			frame = resp.Places[:0]
		}
	}
	return <-readErr
}

// frameKept is the largest frame buffer a worker keeps for the next file
// (Serve): the frames of small files, not the odd 4 MiB one.
const frameKept = 1 << 20

// readBufferSize is the worker's read buffer: the largest file the router
// reads whole.
const readBufferSize = extract.WholeMax

// handle extracts one file and makes its answer; an inline answer's
// places go into frame's memory when it is large enough, and the router
// reads into readBuffer (extract.Options.ReadBuffer): nothing of the
// answer refers to either once it is sent.
func handle(ctx context.Context, req Request, scratch string, memLimit int64, ocr *ocrSession, frame, readBuffer []byte) (resp Response) {
	resp.ID = req.ID
	dir := filepath.Join(scratch, "x")
	// Made by the readers that use it (most files need none), emptied
	// after each file and when the worker starts (Serve): a killed
	// worker's leftovers go before its successor's first file, and a
	// file that used no scratch costs one failing open (issue 35).
	defer clearScratch(dir)
	faultHook(req.Name, req.Path)
	res, err := extractSafely(ctx, req, extract.Options{Scratch: dir, MemLimit: memLimit, OCR: ocr.options(), HiddenSheets: req.HiddenSheets, Preparing: ocr.preparing, ReadBuffer: readBuffer})
	if ocr.lost != nil {
		// A page could not be handed over: the coordinator is gone or
		// closing the pipe; whatever this answer says is not read.
		return failed(resp, ocr.lost)
	}
	if err != nil {
		if f := scratchFault(err, scratch); f != nil {
			return faulted(resp, f)
		}
		resp = failed(resp, err)
		resp.Vanished = gone(req.Path)
		return resp
	}
	resp.Log, resp.NoText = res.Log, res.NoText
	resp.OCRPages, resp.OCRWaiting, resp.OCRKeys = res.OCRPages, res.OCRWaiting, ocr.used()
	if req.Inline {
		places, size, err := content.NormalizePlaces(res.Places)
		if err != nil {
			return writeFailed(resp, err)
		}
		if size <= content.InlineMax {
			// The frame is about as long as the TSVs (a length for a
			// line's CR LF, a name for a BOM): allocated once, not grown
			// line by line.
			if int64(cap(frame)) < size+256 {
				frame = make([]byte, 0, size+256)
			}
			resp.OK, resp.TSVCount, resp.Inline, resp.Places = true, len(places), true, content.AppendPlaces(frame[:0], places)
			return resp
		}
	}
	var src *content.Source
	if req.ModTime != 0 {
		src = &content.Source{ModTime: time.Unix(0, req.ModTime), Size: req.Size}
	}
	n, err := content.WriteStage(req.Stage, req.Recycled, res.Places, src)
	if err != nil {
		return writeFailed(resp, err)
	}
	resp.OK, resp.TSVCount = true, n
	return resp
}

// gone reports whether the file at path is not there (a failure that the
// file's vanishing explains: Response.Vanished).
func gone(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// extractFile is extract.Extract (a seam: tests make a file hang).
var extractFile = extract.Extract

// extractSafely turns a panic inside a reader into a per-file failure, so
// one bad file never takes the worker down (STYLE.md §5).
func extractSafely(ctx context.Context, req Request, opt extract.Options) (res *extract.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = extract.Corrupt(fmt.Errorf("panic: %v", p))
		}
	}()
	opt.Limits = testLimits()
	return extractFile(ctx, req.Path, req.Name, opt)
}

// writeFailed answers an error of writing the workspace (the scratch, the
// staged place TSVs): a fault of the workspace when WriteFault says so, a
// per-file failure otherwise (a place name the file system refuses).
func writeFailed(resp Response, err error) Response {
	if f := workspace.WriteFault(err); f != nil {
		return faulted(resp, f)
	}
	return failed(resp, err)
}

// scratchFault tells a reader's error that comes from writing the scratch
// (copies, conversions) from one of reading the source, which stays the
// file's failure: a full or read-only disk can only be the scratch (the
// worker writes nowhere else), an I/O or permission error only when it
// names a path inside it.
func scratchFault(err error, scratch string) *workspace.FaultError {
	f := workspace.WriteFault(err)
	if f == nil {
		return nil
	}
	if f.Kind == workspace.FaultFull || f.Kind == workspace.FaultReadOnly || within(f.Path, scratch) {
		return f
	}
	return nil
}

// within reports whether path lies inside dir.
func within(path, dir string) bool {
	if path == "" || dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// faulted answers a workspace fault: not the file's failure.
func faulted(resp Response, f *workspace.FaultError) Response {
	resp.OK = false
	resp.Fault, resp.FaultPath = f.Kind, f.Path
	resp.Msg = f.Error()
	resp.Detail = f.Err.Error()
	return resp
}

// failed fills a failure response: Msg from Describe, the one mapping of
// an error to its user-facing message; Detail the English chain, for the
// log only.
func failed(resp Response, err error) Response {
	resp.OK = false
	resp.Msg = Describe(err)
	resp.Detail = err.Error()
	var post *extract.Postponed
	var xerr *extract.Error
	var unav *extract.Unavailable
	switch {
	case errors.As(err, &post):
		resp.Postponed = true
	case errors.As(err, &unav):
		resp.Unavailable = true
	case errors.As(err, &xerr):
		resp.Log = append(resp.Log, xerr.Log...)
		// Its Error() is the Japanese message; the chain is its cause.
		resp.Detail = ""
		if xerr.Cause != nil {
			resp.Detail = xerr.Cause.Error()
		}
	}
	return resp
}

// clearScratch empties the per-file scratch folder but keeps LibreOffice's
// private profile: building it costs seconds, and it is only ever used by
// this worker. A folder left with nothing in it is removed, so that the
// next file that uses none finds none (one failing open, no listing). The
// folder is opened as the workspace opens files (no poller probe, issue
// 35) and listed once.
func clearScratch(dir string) {
	f, err := workspace.OpenRead(dir)
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(-1)
	f.Close()
	keep := false
	for _, e := range entries {
		if e.Name() == libreoffice.Profile {
			keep = true
			continue
		}
		workspace.RemoveAll(filepath.Join(dir, e.Name()))
	}
	if !keep {
		workspace.Remove(dir)
	}
}
