package indexer

import (
	"os"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/ocrcache"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The run's side of the OCR page cache (package ocrcache has the formats
// and the clean-up rules): it records which pages each file uses when the
// file's result is applied, and sweeps the cache at the end of a run whose
// ingest list changed.

// writeKeyList records the keys a file uses; merge adds them to those
// already listed. A 済 file with no keys has its list removed (only where
// key lists exist at all: a workspace without OCR pays nothing).
func (r *run) writeKeyList(rel string, keys []string, merge bool) {
	if len(keys) == 0 && merge {
		return
	}
	dir := r.ws.OCRKeyLists()
	if len(keys) == 0 {
		if r.ocr.noLists {
			return
		}
		if _, err := os.Stat(dir); err != nil {
			r.ocr.noLists = true
			return
		}
		if err := ocrcache.RemoveKeyList(dir, rel); err != nil {
			r.noteFault(err)
		}
		return
	}
	if err := ocrcache.WriteKeyList(dir, ingestlist.CleanError(rel), keys, merge); err != nil && !r.noteFault(err) {
		r.logf(Warn, "    OCR の結果の一覧を保存できませんでした。")
		r.logDetail(err.Error())
	}
	r.ocr.noLists = false
}

// sweepOCRCache cleans the cache up (package ocrcache). rows are the
// ingest list's rows after the run.
func (r *run) sweepOCRCache(rows []ingestlist.Row) {
	if r.fault != nil {
		return
	}
	if _, err := os.Stat(r.ws.OCRCache()); err != nil {
		return
	}
	have := make(map[string]bool, len(rows))
	for _, row := range rows {
		have[row.Key()] = true
	}
	listed := func(rel string) bool { return have[workspace.FoldKey(rel)] }
	if st, err := os.Stat(r.ws.OCRSwept()); err == nil && r.now().Sub(st.ModTime()) < ocrcache.SweepEvery {
		ocrcache.DropGone(r.ws, listed)
		return
	}
	removed, freed := ocrcache.Sweep(r.ws, listed, r.now(), ocrcache.Cap)
	if err := workspace.WriteFileAtomic(r.ws.OCRSwept(), nil); err != nil {
		r.noteFault(err)
	}
	if removed > 0 {
		r.logf(Info, "    使われなくなった OCR の結果 %d 件（%d KB）を片付けました。", removed, (freed+1023)/1024)
	}
}
