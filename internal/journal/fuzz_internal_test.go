package journal

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"

	"github.com/fumibako/fumibako/internal/testutil"
)

// The fuzz targets of the journal's readers live inside the package so that
// they can check the reader against the writer's own validation and
// encoding (jobRecord, folderRecord, appendLine) without touching the disk.

// FuzzRead: Read never fails on bytes, Recover never panics and keeps to its
// contract, and every record read is one the writer accepts and encodes to
// a line that reads back as the same record.
func FuzzRead(f *testing.F) {
	testutil.AddSeeds(f, "*.tsv")
	f.Add([]byte("\uFEFF版\t2\r\n回\t2026/09/19 10:00:00\t1\r\n始\t営業\\A.xlsx\t01\t余分\r\n出\t営"))
	listKeys := []string{workspace.FoldKey(`営業\A.xlsx`), "", workspace.FoldKey(`営業\2024\見積\A社.xlsx`)}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read error: %v", err)
		}
		rec := l.Recover(listKeys)
		if !l.Readable() {
			if rec.Readable || rec.Redo != nil || rec.Unpublished != nil || l.Records != nil {
				t.Fatalf("unreadable log %+v recovered as %+v", l, rec)
			}
			return
		}
		for _, j := range rec.Redo {
			if _, err := jobRecord(KindStart, j.RelPath, j.Count); err != nil {
				t.Fatalf("Recover job the writer refuses: %v", err)
			}
		}
		for _, folder := range rec.Unpublished {
			if _, err := folderRecord(KindUnpublished, folder); err != nil {
				t.Fatalf("Recover folder the writer refuses: %v", err)
			}
		}
		var b []byte
		var want []Record
		for _, r := range l.Records {
			if len(r.Fields) != fieldCount[r.Kind] {
				t.Fatalf("record %+v has %d fields", r, len(r.Fields))
			}
			var err error
			switch r.Kind {
			case KindCarried, KindStart:
				r, err = jobRecord(r.Kind, r.Fields[0], r.count())
			case KindPublished, KindUnpublished:
				r, err = folderRecord(r.Kind, r.Fields[0])
			case KindRun:
				r.Fields = []string{r.Fields[0], strconv.Itoa(r.count())}
			}
			if err != nil {
				t.Fatalf("writer refuses a record the reader accepted: %v", err)
			}
			b = r.appendLine(b)
			want = append(want, r)
		}
		back, err := Read(bytes.NewReader(append([]byte(bom+"版\t2\r\n"), b...)))
		if err != nil || back.Skipped != 0 || back.Torn || !reflect.DeepEqual(back.Records, want) {
			t.Fatalf("records written back read as %+v, %v; want %+v", back, err, want)
		}
	})
}

// FuzzLegacyIngesting: every job read has a count ≥ 1 and a relative path
// the journal writer accepts as 持, and no path appears twice.
func FuzzLegacyIngesting(f *testing.F) {
	testutil.AddSeeds(f, "ingesting*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		seen := map[string]bool{}
		for _, j := range ReadLegacyIngesting(bytes.NewReader(data)) {
			if _, err := jobRecord(KindCarried, j.RelPath, j.Count); err != nil {
				t.Fatalf("legacy job the writer refuses: %v", err)
			}
			key := strings.ToUpper(j.RelPath)
			if seen[key] {
				t.Fatalf("legacy job %q twice", j.RelPath)
			}
			seen[key] = true
		}
	})
}
