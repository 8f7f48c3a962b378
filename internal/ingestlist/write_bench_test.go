package ingestlist_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// benchRows makes n rows shaped like a real list: nested Japanese paths,
// mostly 済, some 失敗 with a message, some 未取り込み.
func benchRows(n int) []ingestlist.Row {
	rows := make([]ingestlist.Row, n)
	for i := range rows {
		r := ingestlist.Row{
			RelPath:     fmt.Sprintf(`営業\%d年度\顧客%03d\見積書_%05d.xlsx`, 2010+i%15, i%997, i),
			Updated:     "2025/01/10 12:34:56",
			Size:        int64(10000 + i*37),
			State:       ingestlist.Done,
			TSVCount:    i % 9,
			HasTSVCount: true,
			IngestedAt:  "2026/09/19 10:00:35",
			Version:     4,
		}
		switch i % 50 {
		case 7:
			r.State, r.HasTSVCount, r.TSVCount, r.Version = ingestlist.Failed, false, 0, 0
			r.Error = "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"
		case 8:
			r.State, r.HasTSVCount, r.TSVCount, r.Version, r.IngestedAt = ingestlist.Pending, false, 0, 0, ""
		}
		rows[i] = r
	}
	return rows
}

// BenchmarkWriteFile rewrites a list of 50,000 rows (tebunko: about 0.2 s
// with the formatting inlined, reference/indexing.md §9), fsync included.
func BenchmarkWriteFile(b *testing.B) {
	rows := benchRows(50000)
	path := filepath.Join(b.TempDir(), "ingest_status.tsv")
	b.ReportAllocs()
	for b.Loop() {
		if err := ingestlist.WriteFile(path, seedFolders, rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, seedFolders, benchRows(50000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		l, err := ingestlist.Read(bytes.NewReader(data))
		if err != nil || len(l.Rows) != 50000 {
			b.Fatalf("Read: %d rows, %v", len(l.Rows), err)
		}
	}
}
