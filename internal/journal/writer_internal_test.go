package journal

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWriterSticky: after a failed append the Writer writes nothing more and
// keeps returning the first error, so a partial line is never followed by
// another record.
func TestWriterSticky(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest.tsv")
	w, err := Create(path, time.Now(), 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.f.Close() // the next write fails, as on a full or vanished disk
	first := w.Start(`営業\A.xlsx`, 1)
	if first == nil {
		t.Fatal("Start on a failing file = nil error, want one")
	}
	w.f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0) // the disk is back
	for _, err := range []error{w.Start(`営業\B.xlsx`, 1), w.Published(`営業`), w.Rewriting(), w.Ended(), w.Close()} {
		if !errors.Is(err, first) {
			t.Errorf("call after a failed append error = %v, want %v", err, first)
		}
	}
	l, err := ReadFile(path)
	if err != nil || len(l.Records) != 1 {
		t.Errorf("journal after a failed append = %+v, %v; want only 回", l, err)
	}
}
