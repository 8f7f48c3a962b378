package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The OCR page cache (work/ocr/pages, format in worker/ocrcache.go) is
// kept small by knowing which files use which pages. Each source file
// that used OCR has a key list, work/ocr/files/<name>.tsv, where <name> is
// the first 32 hex digits of the SHA-256 of the file's FoldKey (so a
// rename or a change of case finds the same list only for the same
// path). Format: UTF-8 with a BOM, CRLF-ended lines; the first line is the
// file's relative path (as in the ingest list), each further line one page
// key:
//
//	営業\スキャン\2019見積.pdf
//	3fa9c1…
//	77b02e…
//
// The coordinator rewrites a file's list (workspace.WriteFileAtomic) when
// its result is applied: a 済 file lists the keys its worker used
// (worker.Response.OCRKeys, cached or recognized); a file that failed or
// was stopped adds the pages it handed over, so its retry finds them; a 済
// file that used none has its list removed.
//
// Clean-up (sweepOCRCache) runs at the end of a run whose ingest list
// changed: a key list whose path is no longer in the ingest list is
// removed. At most once per ocrSweepEvery (work/ocr/swept's time), the
// cache is walked too: an entry no list names is removed once it is older
// than ocrUnusedGrace (pages of a file killed mid-scan wait that long for
// its next try); then, while the cache is over ocrCacheCap, the oldest
// entries go, used or not (a page evicted costs its OCR again, never its
// text). The walk costs about 0.5 s per 20,000 entries (measured), too
// much for every watch run; between walks the cache may pass the cap by
// what a day of OCR writes (about 2 KB a page).

// ocrCacheCap bounds the OCR page cache, in bytes of entries.
const ocrCacheCap = 1 << 30

// ocrUnusedGrace is how long an entry no file lists is kept.
const ocrUnusedGrace = 7 * 24 * time.Hour

// ocrSweepEvery is how often the cache itself is walked.
const ocrSweepEvery = 24 * time.Hour

// keyListPath is the key list of a relative path.
func (r *run) keyListPath(rel string) string {
	sum := sha256.Sum256([]byte(workspace.FoldKey(rel)))
	return filepath.Join(r.ws.OCRKeyLists(), hex.EncodeToString(sum[:16])+".tsv")
}

// writeKeyList records the keys a file uses; merge adds them to those
// already listed. A 済 file with no keys has its list removed (only where
// key lists exist at all: a workspace without OCR pays nothing).
func (r *run) writeKeyList(rel string, keys []string, merge bool) {
	if len(keys) == 0 && merge {
		return
	}
	path := r.keyListPath(rel)
	if len(keys) == 0 {
		if r.ocr.noLists {
			return
		}
		if _, err := os.Stat(r.ws.OCRKeyLists()); err != nil {
			r.ocr.noLists = true
			return
		}
		if err := workspace.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.noteFault(err)
		}
		return
	}
	if merge {
		if _, old, err := readKeyList(path); err == nil {
			keys = append(old, keys...)
		}
	}
	rows := [][]string{{ingestlist.CleanError(rel)}}
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[k] && workspace.ValidOCRKey(k) {
			seen[k] = true
			rows = append(rows, []string{k})
		}
	}
	err := workspace.MkdirAll(filepath.Dir(path))
	if err == nil {
		err = workspace.WriteFileAtomic(path, workspace.EncodeTSV(rows))
	}
	if err != nil && !r.noteFault(err) {
		r.logf(Warn, "    OCR の結果の一覧を保存できませんでした。")
		r.logDetail(err.Error())
	}
	r.ocr.noLists = false
}

// dropGoneKeyLists removes the key lists of paths listed says are gone
// and returns the keys the others name.
func dropGoneKeyLists(ws *workspace.Workspace, listed func(rel string) bool) map[string]bool {
	used := map[string]bool{}
	lists, _ := os.ReadDir(ws.OCRKeyLists())
	for _, e := range lists {
		path := filepath.Join(ws.OCRKeyLists(), e.Name())
		rel, keys, err := readKeyList(path)
		if err != nil {
			continue
		}
		if !listed(rel) {
			workspace.Remove(path)
			continue
		}
		for _, k := range keys {
			used[k] = true
		}
	}
	return used
}

// readKeyList reads a key list: the file's relative path and its keys.
func readKeyList(path string) (string, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	var rel string
	var keys []string
	for i, row := range workspace.DecodeTSV(data) {
		switch {
		case i == 0:
			rel = row[0]
		case workspace.ValidOCRKey(row[0]):
			keys = append(keys, row[0])
		}
	}
	return rel, keys, nil
}

// sweepOCRCache cleans the cache up (see above). rows are the ingest
// list's rows after the run.
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
	if st, err := os.Stat(r.ws.OCRSwept()); err == nil && r.now().Sub(st.ModTime()) < ocrSweepEvery {
		dropGoneKeyLists(r.ws, listed)
		return
	}
	removed, freed := SweepOCRCache(r.ws, listed, r.now(), ocrCacheCap)
	if err := workspace.WriteFileAtomic(r.ws.OCRSwept(), nil); err != nil {
		r.noteFault(err)
	}
	if removed > 0 {
		r.logf(Info, "    使われなくなった OCR の結果 %d 件（%d KB）を片付けました。", removed, (freed+1023)/1024)
	}
}

// SweepOCRCache removes key lists of paths that listed says are gone and
// cache entries as described above, with now the clock and limit the cap
// (a parameter for tests). It returns the entries removed and their bytes.
func SweepOCRCache(ws *workspace.Workspace, listed func(rel string) bool, now time.Time, limit int64) (removed int, freed int64) {
	used := dropGoneKeyLists(ws, listed)
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var kept []entry
	var total int64
	filepath.WalkDir(ws.OCRCache(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".txt") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		key := strings.TrimSuffix(d.Name(), ".txt")
		if !used[key] && now.Sub(info.ModTime()) > ocrUnusedGrace {
			if workspace.Remove(path) == nil {
				removed++
				freed += info.Size()
			}
			return nil
		}
		kept = append(kept, entry{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= limit {
		return removed, freed
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].mod.Before(kept[j].mod) })
	for _, e := range kept {
		if total <= limit*9/10 {
			break
		}
		if workspace.Remove(e.path) == nil {
			removed++
			freed += e.size
			total -= e.size
		}
	}
	return removed, freed
}
