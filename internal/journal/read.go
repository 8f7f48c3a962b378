package journal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Log is a journal as read back: what the recovery at the next start works
// from (seed: ReadPrevious).
type Log struct {
	// Missing is true when the journal file does not exist (first run, or a
	// workspace of an earlier version).
	Missing bool
	// Version is the value of the leading 版 record, "" when the first line
	// is not a 版 record (empty file, a journal of another format). Only
	// FormatVersion is read on; anything else leaves Records empty.
	Version string
	// Records are the well-formed lines after the leading 版, in file order.
	Records []Record
	// Skipped counts the lines passed over: unknown kinds, missing columns,
	// counts that are not integers, paths that fail the name rules, lines
	// that are not UTF-8 or longer than 1 MiB, and a 版 after the first line.
	Skipped int
	// Torn is true when the last line did not end with a newline and was
	// dropped (the writer was stopped in the middle of it).
	Torn bool
}

// Readable reports whether the log can be recovered from: the file exists
// and starts with 版 FormatVersion. When it cannot, the caller publishes
// every per-file folder it finds (seed: findIndexFoldersWithBooks).
func (l *Log) Readable() bool {
	return l != nil && !l.Missing && l.Version == FormatVersion
}

// Read parses a journal. Malformed input is never an error: bad lines are
// skipped (Log.Skipped), a torn last line is dropped (Log.Torn), and a
// journal of another version is reported through Log.Version and not read
// further. The error is only one returned by r.
func Read(r io.Reader) (*Log, error) {
	l := &Log{}
	started := false
	torn, err := scanLines(r, func(line string, ok bool) bool {
		var rec Record
		if ok {
			rec, ok = parseRecord(line)
		}
		if !started {
			started = true
			if !ok || rec.Kind != KindVersion {
				return true // no leading 版: unreadable
			}
			l.Version = rec.Fields[0]
			return l.Version != FormatVersion
		}
		if !ok || rec.Kind == KindVersion {
			l.Skipped++
			return false
		}
		l.Records = append(l.Records, rec)
		return false
	})
	if err != nil {
		return nil, fmt.Errorf("journal: read: %w", err)
	}
	l.Torn = torn
	return l, nil
}

// ReadFile reads the journal at path. A missing file gives a Log with
// Missing set and no error.
func ReadFile(path string) (*Log, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Log{Missing: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	defer f.Close()
	l, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", path, errors.Unwrap(err))
	}
	return l, nil
}
