package ingestlist

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// The words of the format (seed/ingest-list.ja.md, 取り込み一覧).
const (
	bom         = "\uFEFF"
	folderLabel = "クロール対象フォルダ"
	colVersion  = "抽出版"
	crlf        = "\r\n"

	rowColumns    = 8 // with 抽出版
	legacyColumns = 7 // header of an earlier version, without 抽出版
)

// header is the column header line's fields in order.
var header = [rowColumns]string{"相対パス", "更新日時", "サイズ", "状態", "TSV数", "取り込み日時", "エラー", colVersion}

// headerLine is the header as written, with its line ending.
var headerLine = strings.Join(header[:], "\t") + crlf

// ErrInvalidRow is returned (wrapped) for a row that cannot be written so
// that it reads back: a negative size, TSV count or extract version.
var ErrInvalidRow = errors.New("ingestlist: invalid row")

// WriteFile rewrites the ingest list at path with folders and rows through
// workspace.CreateAtomic: it writes "<path>.tmp", fsyncs and renames it over
// path, so a crash leaves the old list or the new one (the seed's
// writeStatusFile). An Appender open on path must be reopened afterwards.
func WriteFile(path string, folders []Folder, rows []Row) error {
	if err := checkRows(rows); err != nil {
		return fmt.Errorf("ingestlist: write %s: %w", path, err)
	}
	f, err := workspace.CreateAtomic(path)
	if err != nil {
		return fmt.Errorf("ingestlist: write %s: %w", path, err)
	}
	if err := write(f, folders, rows); err != nil {
		f.Abort()
		return fmt.Errorf("ingestlist: write %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("ingestlist: write %s: %w", path, err)
	}
	return nil
}

// Write writes a whole ingest list: the BOM, one line per folder, the
// header and one line per row, each ending in CRLF. A folder with an empty
// Name is written as a two-field line (its name is unknown). TAB, CR and LF
// inside any text become spaces, so the lines always read back; other
// characters are written as given (clean messages with CleanError).
// Nothing is written when a row is invalid (ErrInvalidRow).
func Write(w io.Writer, folders []Folder, rows []Row) error {
	if err := checkRows(rows); err != nil {
		return fmt.Errorf("ingestlist: write: %w", err)
	}
	if err := write(w, folders, rows); err != nil {
		return fmt.Errorf("ingestlist: write: %w", err)
	}
	return nil
}

func write(w io.Writer, folders []Folder, rows []Row) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	b := make([]byte, 0, 1024)
	b = append(b, bom...)
	for _, f := range folders {
		b = appendFolder(b, f)
	}
	b = append(b, headerLine...)
	for i := range rows {
		b = appendRow(b, &rows[i])
		if len(b) >= 512 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

func checkRows(rows []Row) error {
	for i := range rows {
		if err := checkRow(&rows[i]); err != nil {
			return err
		}
	}
	return nil
}

func checkRow(r *Row) error {
	switch {
	case r.Size < 0:
		return fmt.Errorf("%w: %s: negative size %d", ErrInvalidRow, r.RelPath, r.Size)
	case r.HasTSVCount && r.TSVCount < 0:
		return fmt.Errorf("%w: %s: negative TSV count %d", ErrInvalidRow, r.RelPath, r.TSVCount)
	case r.Version < 0:
		return fmt.Errorf("%w: %s: negative extract version %d", ErrInvalidRow, r.RelPath, r.Version)
	}
	return nil
}

func appendFolder(b []byte, f Folder) []byte {
	b = append(b, folderLabel...)
	b = append(b, '\t')
	b = appendText(b, f.Path)
	if f.Name != "" {
		b = append(b, '\t')
		b = appendText(b, f.Name)
	}
	return append(b, crlf...)
}

// appendRow appends one data line of eight columns with its CRLF.
func appendRow(b []byte, r *Row) []byte {
	b = appendText(b, r.RelPath)
	b = append(b, '\t')
	b = appendText(b, r.Updated)
	b = append(b, '\t')
	b = strconv.AppendInt(b, r.Size, 10)
	b = append(b, '\t')
	b = appendText(b, string(r.State))
	b = append(b, '\t')
	if r.HasTSVCount {
		b = strconv.AppendInt(b, int64(r.TSVCount), 10)
	}
	b = append(b, '\t')
	b = appendText(b, r.IngestedAt)
	b = append(b, '\t')
	b = appendText(b, r.Error)
	b = append(b, '\t')
	if r.Version > 0 {
		b = strconv.AppendInt(b, int64(r.Version), 10)
	}
	return append(b, crlf...)
}

// appendText appends s with TAB, CR and LF turned into spaces.
func appendText(b []byte, s string) []byte {
	if strings.IndexByte(s, '\t') < 0 && strings.IndexByte(s, '\r') < 0 && strings.IndexByte(s, '\n') < 0 {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t', '\r', '\n':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return b
}

// Appender appends result rows to an existing ingest list, one fsynced line
// each (the seed's addStatusRow): after a SIGKILL or a power loss every
// earlier row is intact and at worst the last line is cut, which the reader
// drops. Only the coordinator appends; an Appender is not safe for
// concurrent use.
type Appender struct {
	f    *os.File
	path string
	// term: the file does not end in a line break (a row cut by a crash, or
	// a failed append); the next row starts with CRLF so it is not glued to
	// the fragment.
	term bool
	buf  []byte
}

// OpenAppender opens the ingest list at path for appending. The file must
// exist (WriteFile creates it after the crawl). An empty file gets the BOM
// and the header first, so that appended rows read back.
func OpenAppender(path string) (*Appender, error) {
	size, last, err := lastByte(path)
	if err != nil {
		return nil, fmt.Errorf("ingestlist: open %s for appending: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("ingestlist: open %s for appending: %w", path, err)
	}
	a := &Appender{f: f, path: path, term: size > 0 && last != '\n'}
	if size == 0 {
		if err := workspace.AppendSync(f, []byte(bom+headerLine)); err != nil {
			f.Close()
			return nil, fmt.Errorf("ingestlist: open %s for appending: %w", path, err)
		}
	}
	return a, nil
}

// lastByte returns the size of the file at path and its last byte.
func lastByte(path string) (int64, byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	if st.Size() == 0 {
		return 0, 0, nil
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], st.Size()-1); err != nil {
		return 0, 0, err
	}
	return st.Size(), b[0], nil
}

// Append writes one row as a CRLF-terminated line and fsyncs it. The text
// rules are Write's.
func (a *Appender) Append(r Row) error {
	if err := a.AppendUnsynced(r); err != nil {
		return err
	}
	return a.Sync()
}

// Sync fsyncs the rows written since the last fsync (a group commit of
// several AppendUnsynced).
func (a *Appender) Sync() error {
	if a.f == nil {
		return fmt.Errorf("ingestlist: sync %s: appender closed", a.path)
	}
	if err := workspace.Sync(a.f); err != nil {
		return fmt.Errorf("ingestlist: sync %s: %w", a.path, err)
	}
	return nil
}

// AppendUnsynced appends one row as a CRLF-terminated line in one write,
// without an fsync: a kill of the process keeps it, a power loss may lose it until
// Sync. The text rules are Write's.
func (a *Appender) AppendUnsynced(r Row) error {
	if a.f == nil {
		return fmt.Errorf("ingestlist: append to %s: appender closed", a.path)
	}
	if err := checkRow(&r); err != nil {
		return fmt.Errorf("ingestlist: append to %s: %w", a.path, err)
	}
	b := a.buf[:0]
	if a.term {
		b = append(b, crlf...)
	}
	b = appendRow(b, &r)
	a.buf = b
	if err := workspace.Append(a.f, b); err != nil {
		// Part of the line may be in the file: end it before the next row.
		a.term = true
		return fmt.Errorf("ingestlist: append to %s: %w", a.path, err)
	}
	a.term = false
	return nil
}

// AppendAllUnsynced appends rows as AppendUnsynced does, all of them in
// one write: a group commit's rows cost one system call, not one each
// (issue 35). A row that breaks Write's rules is left out and its error
// is in bad; err is the write's.
func (a *Appender) AppendAllUnsynced(rows []Row) (bad []error, err error) {
	if a.f == nil {
		return nil, fmt.Errorf("ingestlist: append to %s: appender closed", a.path)
	}
	b := a.buf[:0]
	if a.term {
		b = append(b, crlf...)
	}
	n := 0
	for i := range rows {
		if err := checkRow(&rows[i]); err != nil {
			bad = append(bad, fmt.Errorf("ingestlist: append to %s: %w", a.path, err))
			continue
		}
		b = appendRow(b, &rows[i])
		n++
	}
	if cap(b) <= 1<<20 {
		a.buf = b
	}
	if n == 0 {
		return bad, nil
	}
	if err := workspace.Append(a.f, b); err != nil {
		// Part of a line may be in the file: end it before the next row.
		a.term = true
		return bad, fmt.Errorf("ingestlist: append to %s: %w", a.path, err)
	}
	a.term = false
	return bad, nil
}

// Close closes the file. Rows already appended are on disk.
func (a *Appender) Close() error {
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	if err != nil {
		return fmt.Errorf("ingestlist: close %s: %w", a.path, err)
	}
	return nil
}
