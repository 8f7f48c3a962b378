package journal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

// addTestdata seeds f with every testdata file matching pattern.
func addTestdata(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", pattern, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzPendingRemove: parsing never fails, and what was parsed is written
// and parsed back identically.
func FuzzPendingRemove(f *testing.F) {
	addTestdata(f, "pending_remove*.tsv")
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := journal.ParsePendingRemove(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("ParsePendingRemove error: %v", err)
		}
		b, err := journal.AppendPendingRemove(nil, rs)
		if err != nil {
			t.Fatalf("AppendPendingRemove(%+v) error: %v", rs, err)
		}
		back, err := journal.ParsePendingRemove(bytes.NewReader(b))
		if err != nil || !reflect.DeepEqual(back, rs) {
			t.Fatalf("round trip = %+v, %v; want %+v", back, err, rs)
		}
	})
}
