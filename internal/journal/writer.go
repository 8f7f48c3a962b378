package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Writer appends one run's records to the journal. Only the coordinator
// writes it, from one goroutine; a Writer is not safe for concurrent use.
//
// Every method appends exactly one full line in one write before it
// returns, so a kill of the process at any moment leaves every earlier line
// intact (seed: 「1 行ずつ追記して Flush する。追記した行は、強制終了しても
// 残る」). 書 and 終 are fsynced at once (workspace.AppendSync); 始 and 出
// are fsynced by the next Sync, the coordinator's group commit, so that
// records written close together share one fsync: a power loss may lose the
// last 始 lines, which only makes their jobs look not started (they are
// 未取り込み in the list and are taken again, without a count), or the last
// 出 lines, whose folders are then published again (idempotent). After a
// failed append the Writer is broken: the file may end in a partial line,
// so every later call returns the first error and writes nothing (the next
// start drops that line as torn).
type Writer struct {
	f     *os.File
	path  string
	err   error
	dirty bool // lines appended since the last fsync
}

// Create replaces the journal at path with a new one holding 版, 回 (at as
// `yyyy/MM/dd HH:mm:ss` in at's location, local time from the caller, and
// listRows, the data rows of the ingest list just rewritten), a 持 per carried job and a 未 per unpublished folder
// (seed: 「ジャーナルを 版・回・持・未 だけの新しいものに入れ替え」). The new
// file is written under a temporary name, fsynced and renamed into place
// (workspace.CreateAtomic), so a crash leaves the old journal or the whole
// new one; it is then reopened for appending. The journal's folder is
// created when missing. A run cancelled at the confirmation step does not
// call Create: the previous journal stays as it was (seed: 「取りやめた回は
// 入れ替えず、前回のまま残す」).
//
// A carried job or folder that the reader would reject (a path failing the
// name rules, a count below 1) is an error and nothing is written.
func Create(path string, at time.Time, listRows int, carried []Job, unpublished []string) (*Writer, error) {
	if listRows < 0 {
		return nil, fmt.Errorf("journal: create %s: negative row count %d", path, listRows)
	}
	b := []byte(bom)
	b = Record{Kind: KindVersion, Fields: []string{FormatVersion}}.appendLine(b)
	b = Record{Kind: KindRun, Fields: []string{at.Format(dateTimeLayout), strconv.Itoa(listRows)}}.appendLine(b)
	for _, j := range carried {
		r, err := jobRecord(KindCarried, j.RelPath, j.Count)
		if err != nil {
			return nil, fmt.Errorf("journal: create %s: %w", path, err)
		}
		b = r.appendLine(b)
	}
	for _, folder := range unpublished {
		r, err := folderRecord(KindUnpublished, folder)
		if err != nil {
			return nil, fmt.Errorf("journal: create %s: %w", path, err)
		}
		b = r.appendLine(b)
	}
	if err := workspace.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("journal: create %s: %w", path, err)
	}
	if err := workspace.WriteFileAtomic(path, b); err != nil {
		return nil, fmt.Errorf("journal: create %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: open %s for appending: %w", path, err)
	}
	return &Writer{f: f, path: path}, nil
}

// AppendTo opens the journal at path, as it is, for appending: a start
// records the publishes of the folders the previous run left (試 and 出)
// in that run's journal, which is the one a kill in the middle of them
// leaves for the next start to read. A last line cut by a kill is ended
// first, so that the next record is a line of its own (the cut one stays
// malformed, and is skipped).
func AppendTo(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: open %s for appending: %w", path, err)
	}
	w := &Writer{f: f, path: path}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			if err := workspace.Append(f, []byte(crlf)); err != nil {
				f.Close()
				return nil, fmt.Errorf("journal: append to %s: %w", path, err)
			}
		}
	}
	return w, nil
}

// ErrInvalid is the cause of a record the reader would reject: a relative
// path or folder failing the name rules (empty or `.`/`..` segments, TAB, CR,
// LF or other forbidden characters), or a count below 1.
var ErrInvalid = errors.New("journal: invalid record")

func jobRecord(kind Kind, relPath string, count int) (Record, error) {
	if count < 1 || len(strconv.Itoa(count)) > maxDigits {
		return Record{}, fmt.Errorf("%w: %s count %d for %q", ErrInvalid, kind, count, relPath)
	}
	if !validPath(relPath, minFileSegments) {
		return Record{}, fmt.Errorf("%w: %s relative path %q", ErrInvalid, kind, relPath)
	}
	return Record{Kind: kind, Fields: []string{relPath, strconv.Itoa(count)}}, nil
}

func folderRecord(kind Kind, folder string) (Record, error) {
	if !validPath(folder, minFolderSegments) {
		return Record{}, fmt.Errorf("%w: %s folder %q", ErrInvalid, kind, folder)
	}
	return Record{Kind: kind, Fields: []string{folder}}, nil
}

// Start records that the job relPath is handed to a worker; count is the
// number of consecutive starts including this one (seed: 始). Call it before
// the hand-off. The line is written, not fsynced: Sync (or the next 出, 書
// or 終) makes it durable.
func (w *Writer) Start(relPath string, count int) error {
	r, err := jobRecord(KindStart, relPath, count)
	if err != nil {
		return err
	}
	return w.write(r, false)
}

// Sync fsyncs the lines appended since the last fsync (the 始 records of a
// group commit); nothing when there are none.
func (w *Writer) Sync() error {
	if w.err != nil || !w.dirty {
		return w.err
	}
	if w.f == nil {
		return fmt.Errorf("journal: sync %s: %w", w.path, os.ErrClosed)
	}
	if err := workspace.Sync(w.f); err != nil {
		w.err = fmt.Errorf("journal: sync: %w", err)
		return w.err
	}
	w.dirty = false
	return nil
}

// Published records that folder (relative to store/content, `\`
// separators) was published to the body index (seed: 出). The line is
// written, not fsynced: Sync (or the next 書 or 終) makes it durable.
func (w *Writer) Published(folder string) error {
	r, err := folderRecord(KindPublished, folder)
	if err != nil {
		return err
	}
	return w.write(r, false)
}

// Publishing records (試, issue 36: a folder whose publish the process
// died in twice is set aside) that folder's publish begins, count being
// the publishes of it in a row the process did not come back from, this
// one included; or, after a publish came back without a 出 (a workspace
// fault), that it came back, count being the number before it (0 for
// none). The line is written, not fsynced: what it guards against is the
// death of the process, which a written line survives; a power loss that
// loses it costs one more attempt. Sync makes it durable.
func (w *Writer) Publishing(folder string, count int) error {
	if count < 0 || len(strconv.Itoa(count)) > maxDigits {
		return fmt.Errorf("%w: %s count %d for %q", ErrInvalid, KindPublishing, count, folder)
	}
	r, err := folderRecord(KindPublishing, folder)
	if err != nil {
		return err
	}
	r.Fields = append(r.Fields, strconv.Itoa(count))
	return w.write(r, false)
}

// Dirty reports whether lines were appended since the last fsync.
func (w *Writer) Dirty() bool { return w.dirty }

// Rewriting records that the ingest list is about to be rewritten one row
// per file (seed: 書).
func (w *Writer) Rewriting() error { return w.append(Record{Kind: KindRewriting}) }

// Ended records that the rewrite of the ingest list finished: the end of
// the run, written even when some folders could not be published (seed: 終).
func (w *Writer) Ended() error { return w.append(Record{Kind: KindEnded}) }

func (w *Writer) append(r Record) error { return w.write(r, true) }

// write appends r's line, fsynced (with every earlier line) when sync.
func (w *Writer) write(r Record, sync bool) error {
	if w.err != nil {
		return w.err
	}
	if w.f == nil {
		return fmt.Errorf("journal: append to %s: %w", w.path, os.ErrClosed)
	}
	if err := workspace.Append(w.f, r.appendLine(nil)); err != nil {
		w.err = fmt.Errorf("journal: append %s: %w", r.Kind, err)
		return w.err
	}
	w.dirty = true
	if sync {
		return w.Sync()
	}
	return nil
}

// Close closes the journal file. It returns the first append error, if any,
// or the error of closing.
func (w *Writer) Close() error {
	if w.f == nil {
		return w.err
	}
	err := w.f.Close()
	w.f = nil
	if w.err != nil {
		return w.err
	}
	if err != nil {
		return fmt.Errorf("journal: close %s: %w", w.path, err)
	}
	return nil
}
