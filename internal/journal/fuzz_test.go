package journal_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"

	"github.com/fumibako/fumibako/internal/testutil"
)

// FuzzPendingRemove: parsing never fails, and what was parsed is written
// and parsed back identically.
func FuzzPendingRemove(f *testing.F) {
	testutil.AddSeeds(f, "pending_remove*.tsv")
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
