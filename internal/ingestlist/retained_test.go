package ingestlist_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestReadRetainedPerRow bounds what a read list holds per row: the row,
// its line's text, its key in the map by path and its line's position, and
// no second copy of the row per line (issue 21: the coordinator's memory
// grows with the list's rows only). Paths are 60-odd bytes, as in a
// department's share.
func TestReadRetainedPerRow(t *testing.T) {
	const n = 10000
	data := bigList(t, n)
	before := heapInUse()
	l, err := ingestlist.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	perRow := float64(heapInUse()-before) / n
	runtime.KeepAlive(l)
	runtime.KeepAlive(data)
	// 120 B of Row, ~130 B of line text, ~110 B of key and map entry, 16 B
	// of line position, and the slices' growth: 420 B. A copy of the row
	// per line (as Lines held before) makes it 540.
	const limit = 500
	t.Logf("%.0f B per row retained (limit %d)", perRow, limit)
	if perRow > limit {
		t.Errorf("a read list holds %.0f B per row, want ≤ %d", perRow, limit)
	}
}

// bigList is the bytes of a list of n rows (the rows themselves gone
// once it returns, so that they do not count).
func bigList(t *testing.T, n int) []byte {
	t.Helper()
	rows := make([]ingestlist.Row, n)
	for i := range rows {
		rows[i] = ingestlist.Row{RelPath: fmt.Sprintf(`営業\2024年度\見積\株式会社サンプル\file-%05d.docx`, i), Updated: "2025/01/10 12:34:56",
			Size: 10420, State: ingestlist.Done, TSVCount: 3, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35", Version: 4}
	}
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, nil, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
