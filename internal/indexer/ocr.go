package indexer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/ocr"
	"github.com/fumibako/fumibako/internal/ocrcache"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// OCR runs (issue 29; DESIGN.md "OCR runs"). Workers read scans by OCR and
// hand each page recognized to the coordinator (worker.Interim), which
// stores it in the page cache (package ocrcache) before it reads the file's
// result. Files read without their OCR pages for want of an engine are 済
// and listed in the waiting list; once an engine is found at the start of
// a run, exactly those files are read again.

// FindOCR finds the OCR engine's program from the settings' tesseractPath
// ("" = look it up where its installers put it). cmd/fumibako sets it
// (ocr.Find); nil or an error: no engine, and files that need OCR wait.
var FindOCR func(configured string) (string, error)

// CheckOCR checks a program FindOCR found as each worker will (ocr.New:
// --version and the languages); an error is an engine found but unusable
// (ocr.ErrLanguages: no Japanese data), which the run says. It costs two
// runs of the program, so a run pays it only when pages wait for OCR:
// before it reads waiting files again, or when its summary counts pages
// left waiting (checkOCR); an unchanged rerun or a watch run does not.
var CheckOCR func(program string) error

// Lines of an engine found but unusable: without the languages fumibako
// reads (the UB Mannheim installer leaves Japanese out unless chosen), or
// one that does not run as Tesseract.
const (
	msgOCRNoLanguages = "OCR（%s）は見つかりましたが、日本語（jpn・jpn_vert）または英語（eng）の言語データがないため使えません。Debian・Ubuntu: sudo apt install tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-eng、Windows: Tesseract のインストーラーの「Additional language data」で Japanese と Japanese (vertical) を選んでください。OCR が必要なページは、使えるようになるまで待たせます。"
	msgOCRBroken      = "OCR（%s）を動かせなかったため使えません。Tesseract を入れ直すか、設定の tesseractPath を確かめてください。OCR が必要なページは、使えるようになるまで待たせます。"
)

// MsgOCRWaiting is the run summary's and status's line about the pages
// waiting for OCR (pages, files), with how to install the engine.
const MsgOCRWaiting = "OCR を待つページ: %d（%d ファイル）。画像だけのページは OCR（Tesseract）で読みます。Tesseract を入れてから（Debian・Ubuntu: sudo apt install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert、Windows: UB Mannheim 版のインストーラー）、もう一度インデックス作成を始めると、これらのファイルだけを取り込み直します。"

// msgOCRFound is logged when an engine is found and files wait for it.
const msgOCRFound = "OCR（%s）が見つかったため、OCR を待っていた %d 件を取り込み直します。"

// msgOCRPages is the summary's count of pages read by OCR in this run.
const msgOCRPages = "OCR で読んだページ: %d"

// OCRWait is one line of the waiting list: a file ingested (済) without
// its OCR pages, and how many pages wait.
type OCRWait struct {
	RelPath string
	Pages   int
}

// The waiting list, work/store/ocr_waiting.tsv, is one of the workspace's
// small TSVs (workspace.EncodeTSV: UTF-8 with a BOM, TAB-separated,
// CRLF-ended), no header, one line per file:
//
//	<relative path><TAB><pages waiting>
//
// e.g. `営業\スキャン\2019見積.pdf	12`. The coordinator rewrites it whole
// (workspace.WriteFileAtomic) before the group commit that makes the
// files' 済 rows durable (commit.go), so after a kill a 済 file that
// waits is always listed; a file read again without waiting pages, or
// gone from the ingest list, leaves it. A line that does not parse is
// skipped (the file is then not read again for OCR; nothing else is lost).

// ReadOCRWaiting reads the waiting list at path; a missing list is empty.
func ReadOCRWaiting(path string) ([]OCRWait, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("indexer: read %s: %w", path, err)
	}
	var out []OCRWait
	for _, row := range workspace.DecodeTSV(data) {
		if len(row) < 2 || row[0] == "" {
			continue
		}
		if pages, err := strconv.Atoi(row[1]); err == nil && pages > 0 {
			out = append(out, OCRWait{RelPath: row[0], Pages: pages})
		}
	}
	return out, nil
}

// encodeOCRWaiting is the bytes of a waiting list, in path order.
func encodeOCRWaiting(list []OCRWait) []byte {
	sort.Slice(list, func(i, j int) bool { return workspace.FoldKey(list[i].RelPath) < workspace.FoldKey(list[j].RelPath) })
	rows := make([][]string, len(list))
	for i, w := range list {
		rows[i] = []string{ingestlist.CleanError(w.RelPath), strconv.Itoa(w.Pages)}
	}
	return workspace.EncodeTSV(rows)
}

// OCRWaitingTotal sums a waiting list: pages and files.
func OCRWaitingTotal(list []OCRWait) (pages, files int) {
	for _, w := range list {
		pages += w.Pages
	}
	return pages, len(list)
}

// ocrState is the run's OCR bookkeeping.
type ocrState struct {
	program string             // the engine found at the start; "" none
	waiting map[string]OCRWait // fold key → line of the waiting list
	dirty   bool               // waiting differs from the file
	// jobKeys are the keys of the pages each job handed over (ocrPage),
	// kept for a file that then fails, so that a retry finds its pages.
	jobKeys map[int64][]string
	wrote   int   // cache entries written by this run
	shown   int64 // the job whose OCR pages the progress shows
	noLists bool  // work/ocr/files does not exist (writeKeyList)
	checked bool  // the engine was checked this run (checkOCR)
}

// startOCR reads the waiting list and looks for the engine.
func (r *run) startOCR() {
	r.ocr.waiting = map[string]OCRWait{}
	r.ocr.jobKeys = map[int64][]string{}
	list, err := ReadOCRWaiting(r.ws.OCRWaiting())
	if err != nil {
		r.logf(Warn, "    OCR を待つファイルの一覧を読めませんでした（一覧にあったファイルは、今回は OCR のために取り込み直しません）。")
		r.logDetail(err.Error()) // the English cause, in indexing_log.txt only
	}
	for _, w := range list {
		r.ocr.waiting[workspace.FoldKey(w.RelPath)] = w
	}
	if FindOCR == nil {
		return
	}
	p, err := FindOCR(r.opt.Settings.TesseractPath)
	if err != nil || p == "" {
		return
	}
	if len(r.ocr.waiting) > 0 {
		if r.checkOCR(p) != nil {
			return // the waiting files are not read again for nothing
		}
		r.logf(Info, msgOCRFound, p, len(r.ocr.waiting))
	}
	r.ocr.program = p
}

// checkOCR checks the engine once per run (CheckOCR) and logs why one
// found is unusable.
func (r *run) checkOCR(p string) error {
	if CheckOCR == nil || r.ocr.checked {
		return nil
	}
	r.ocr.checked = true
	err := CheckOCR(p)
	switch {
	case err == nil:
	case errors.Is(err, ocr.ErrLanguages):
		r.logf(Warn, msgOCRNoLanguages, p)
	default:
		r.logf(Warn, msgOCRBroken, p)
	}
	return err
}

// ocrAgain reports whether an unchanged 済 file is read again: it waits
// for OCR and an engine is there now (plan.Input.Again).
func (r *run) ocrAgain() func(rel string) bool {
	if r.ocr.program == "" || len(r.ocr.waiting) == 0 {
		return nil
	}
	return func(rel string) bool {
		_, ok := r.ocr.waiting[workspace.FoldKey(rel)]
		return ok
	}
}

// ocrInterim takes a worker's interim message for job id: a page goes to
// the cache (a workspace fault is the run's), progress and an engine's
// preparation (issue 33) to the observers.
func (r *run) ocrInterim(id int64, m worker.Interim) {
	if m.Preparing != nil {
		r.progress.Preparing = *m.Preparing
		r.prepShown = id
		if *m.Preparing == "" {
			r.prepShown = 0
		}
		r.update()
		return
	}
	if pg := m.OCRPage; pg != nil {
		if !workspace.ValidOCRKey(pg.Key) {
			r.logDetail(fmt.Sprintf("OCR page key %q is not valid; not cached", pg.Key))
			return
		}
		if err := ocrcache.Write(r.ws.OCRCache(), pg.Key, pg.Lines); err != nil {
			if !r.noteFault(err) {
				r.logf(Warn, "    OCR の結果を保存できませんでした（このページは次に取り込むときにまた OCR で読みます）。")
				r.logDetail(err.Error())
			}
			return
		}
		r.ocr.wrote++
		r.ocr.jobKeys[id] = append(r.ocr.jobKeys[id], pg.Key)
		return
	}
	if pr := m.OCRProgress; pr != nil {
		r.progress.OCRDone, r.progress.OCRTotal = pr.Done, pr.Total
		r.ocr.shown = id
		r.update()
	}
}

// ocrRecorded updates the waiting list and the file's key list once its
// result is applied (state is its new row's).
func (r *run) ocrRecorded(id int64, rel string, state ingestlist.State, resp worker.Response) {
	keys := r.ocr.jobKeys[id]
	delete(r.ocr.jobKeys, id)
	if r.ocr.shown == id {
		r.progress.OCRDone, r.progress.OCRTotal, r.ocr.shown = 0, 0, 0
	}
	if r.prepShown == id {
		// The worker ended without saying the preparation was over (it
		// failed or was killed): the note goes with its file.
		r.progress.Preparing, r.prepShown = "", 0
	}
	k := workspace.FoldKey(rel)
	if state == ingestlist.Done {
		r.sum.OCRPages += resp.OCRPages
		if resp.OCRWaiting > 0 {
			r.ocr.waiting[k] = OCRWait{RelPath: rel, Pages: resp.OCRWaiting}
			r.ocr.dirty = true
		} else if _, ok := r.ocr.waiting[k]; ok {
			delete(r.ocr.waiting, k)
			r.ocr.dirty = true
		}
		r.writeKeyList(rel, resp.OCRKeys, false)
		return
	}
	if _, ok := r.ocr.waiting[k]; ok && state == ingestlist.Failed {
		delete(r.ocr.waiting, k)
		r.ocr.dirty = true
	}
	// A file that failed or was stopped keeps the pages it handed over
	// for its next try.
	r.writeKeyList(rel, keys, true)
}

// writeOCRWaiting rewrites the waiting list when it changed (before the
// group commit's rows, commit.go). rows, when set, drops the files gone
// from the ingest list.
func (r *run) writeOCRWaiting(rows []ingestlist.Row) {
	if rows != nil && len(r.ocr.waiting) > 0 {
		have := make(map[string]bool, len(rows))
		for _, row := range rows {
			have[row.Key()] = true
		}
		for k := range r.ocr.waiting {
			if !have[k] {
				delete(r.ocr.waiting, k)
				r.ocr.dirty = true
			}
		}
	}
	if !r.ocr.dirty || r.fault != nil {
		return
	}
	list := make([]OCRWait, 0, len(r.ocr.waiting))
	for _, w := range r.ocr.waiting {
		list = append(list, w)
	}
	var err error
	if len(list) == 0 {
		err = workspace.Remove(r.ws.OCRWaiting())
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	} else {
		err = workspace.WriteFileAtomic(r.ws.OCRWaiting(), encodeOCRWaiting(list))
	}
	if err != nil {
		if !r.noteFault(err) {
			r.logf(Error, "OCR を待つファイルの一覧に書き込めません: %v", err)
		}
		return
	}
	r.ocr.dirty = false
}

// ocrSummary logs the OCR lines of the summary and fills the Summary's
// waiting counts.
func (r *run) ocrSummary() {
	s := &r.sum
	if s.OCRPages > 0 {
		r.logf(Info, msgOCRPages, s.OCRPages)
	}
	for _, w := range r.ocr.waiting {
		s.OCRWaitingPages += w.Pages
		s.OCRWaitingFiles++
	}
	if s.OCRWaitingFiles > 0 {
		if r.ocr.program != "" {
			// Found, yet pages wait: the workers could not use it.
			r.checkOCR(r.ocr.program)
		}
		r.logf(Warn, MsgOCRWaiting, s.OCRWaitingPages, s.OCRWaitingFiles)
	}
}
