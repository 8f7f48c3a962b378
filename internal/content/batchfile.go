package content

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// The batch files on disk (format: batch.go): the run's writer, and the
// start's listing and reading of what earlier runs left.

// BatchWriter appends records to one run's batch file. It is not safe for
// concurrent use (the coordinator's goroutine alone appends).
type BatchWriter struct {
	path  string
	f     *os.File
	off   int64
	dirty bool // appended since the last Sync
	buf   []byte
	err   error // a failed append: every later one gives it again
}

// CreateBatch creates the batch file at path (it must not exist) with its
// header, and fsyncs its folder so that the file survives a power loss
// with the records the group commit syncs into it.
func CreateBatch(path string) (*BatchWriter, error) {
	if err := workspace.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("content: create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("content: create %s: %w", path, err)
	}
	w := &BatchWriter{path: path, f: f, dirty: true}
	if err := workspace.Append(f, []byte(BatchMagic)); err != nil {
		f.Close()
		return nil, err
	}
	w.off = int64(len(BatchMagic))
	if err := workspace.SyncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Path is the batch file's path.
func (w *BatchWriter) Path() string { return w.path }

// Size is the bytes written to the file so far.
func (w *BatchWriter) Size() int64 { return w.off }

// Append writes rec in one write, without an fsync, and returns where it
// lies (for ReadBatchAt).
func (w *BatchWriter) Append(rec BatchRecord) (off, n int64, err error) {
	if w.err != nil {
		return 0, 0, w.err
	}
	w.buf = AppendBatchRecord(w.buf[:0], rec)
	if len(w.buf)-8 > BatchRecordMax {
		return 0, 0, fmt.Errorf("content: batch record of %s: %d bytes over the limit", rec.Path, len(w.buf))
	}
	if err := workspace.Append(w.f, w.buf); err != nil {
		// A short write may have left part of the record: the reader
		// stops there, and nothing after it may be appended.
		w.err = err
		return 0, 0, err
	}
	off, n = w.off, int64(len(w.buf))
	w.off += n
	w.dirty = true
	if cap(w.buf) > 1<<20 {
		w.buf = nil
	}
	return off, n, nil
}

// Dirty reports whether records were appended since the last Sync.
func (w *BatchWriter) Dirty() bool { return w.dirty }

// Sync fsyncs the file: every record appended so far is durable.
func (w *BatchWriter) Sync() error {
	if !w.dirty {
		return nil
	}
	if err := workspace.Sync(w.f); err != nil {
		return err
	}
	w.dirty = false
	return nil
}

// ReadAt reads back a record appended before (Append's off and n).
func (w *BatchWriter) ReadAt(off, n int64) (BatchRecord, error) {
	r, err := workspace.OpenRead(w.path)
	if err != nil {
		return BatchRecord{}, fmt.Errorf("content: read %s: %w", w.path, err)
	}
	defer r.Close()
	return ReadBatchAt(r, off, n)
}

// Close closes the file.
func (w *BatchWriter) Close() error {
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}

// ListBatches returns the batch files in dir, oldest run first.
func ListBatches(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("content: list %s: %w", dir, err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), BatchExt) && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadBatchFile reads the records of the batch file at path (ReadBatch).
func ReadBatchFile(path string) ([]BatchEntry, Tail, error) {
	f, err := workspace.OpenRead(path)
	if err != nil {
		return nil, Tail{}, fmt.Errorf("content: read %s: %w", path, err)
	}
	defer f.Close()
	recs, tail := ReadBatch(f)
	return recs, tail, nil
}

// LatestRecords reads the batch files at paths (oldest first) and returns
// the latest record of each file (keyed by workspace.FoldKey of its
// relative path), later records overriding earlier ones and a Drop
// removing the earlier records of its folder; with the tails of the files
// that did not end cleanly, for the log.
func LatestRecords(paths []string) (map[string]BatchRecord, []string, error) {
	latest := map[string]BatchRecord{}
	var torn []string
	for _, p := range paths {
		recs, tail, err := ReadBatchFile(p)
		if err != nil {
			return nil, nil, err
		}
		if !tail.Clean {
			torn = append(torn, fmt.Sprintf("%s: %s at %d", p, tail.Reason, tail.Offset))
		}
		for _, e := range recs {
			if e.Drop {
				fk := workspace.FoldKey(e.Path)
				for k, r := range latest {
					if workspace.FoldKey(FolderOf(r.Path)) == fk {
						delete(latest, k)
					}
				}
				continue
			}
			latest[workspace.FoldKey(e.Path)] = e.BatchRecord
		}
	}
	return latest, torn, nil
}
