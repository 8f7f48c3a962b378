package journal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

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

// FuzzRead: Read never fails on bytes, Recover never panics, and what was
// read is written back identically by a Writer (the reader and writer agree
// on every record).
func FuzzRead(f *testing.F) {
	addTestdata(f, "*.tsv")
	f.Add([]byte(text(head, run4, `始|営業\A.xlsx|1`, `始|営業\A.xlsx|1|余分`) + "出\t営"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := journal.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read error: %v", err)
		}
		rec := l.Recover(keys(`営業\A.xlsx`, "", `営業\2024\見積\A社.xlsx`, `2019年度\新規.docx`))
		if !l.Readable() && (rec.Readable || rec.Redo != nil || rec.Unpublished != nil) {
			t.Fatalf("Recover on an unreadable log = %+v", rec)
		}
		for _, j := range rec.Redo {
			if j.Count < 1 || j.RelPath == "" {
				t.Fatalf("Recover job %+v", j)
			}
		}
		if !l.Readable() {
			return
		}
		// Rebuild the file from the records through a Writer and read it back.
		path := filepath.Join(t.TempDir(), "ingest.tsv")
		w, err := journal.Create(path, time.Now(), 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []journal.Record
		for _, r := range l.Records {
			var err error
			switch r.Kind {
			case journal.KindStart:
				err = w.Start(r.Fields[0], atoi(r.Fields[1]))
			case journal.KindPublished:
				err = w.Published(r.Fields[0])
			case journal.KindRewriting:
				err = w.Rewriting()
			case journal.KindEnded:
				err = w.Ended()
			default:
				continue
			}
			if err != nil {
				t.Fatalf("writing back %+v: %v", r, err)
			}
			want = append(want, r)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		back, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := back.Records[1:] // after 回
		if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(normalize(got), normalize(want)) {
			t.Fatalf("round trip records = %+v, want %+v", got, want)
		}
	})
}

// normalize makes counts canonical ("01" and "1" are the same count).
func normalize(rs []journal.Record) []journal.Record {
	out := make([]journal.Record, len(rs))
	for i, r := range rs {
		out[i] = journal.Record{Kind: r.Kind, Fields: append([]string(nil), r.Fields...)}
		if r.Kind == journal.KindStart {
			out[i].Fields[1] = strconv.Itoa(atoi(r.Fields[1]))
		}
		if len(out[i].Fields) == 0 {
			out[i].Fields = nil
		}
	}
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// FuzzLegacyIngesting: every job read has a count ≥ 1 and a relative path
// that the journal writer accepts.
func FuzzLegacyIngesting(f *testing.F) {
	addTestdata(f, "ingesting*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs := journal.ReadLegacyIngesting(bytes.NewReader(data))
		seen := map[string]bool{}
		path := filepath.Join(t.TempDir(), "ingest.tsv")
		if _, err := journal.Create(path, time.Now(), 0, jobs, nil); err != nil {
			t.Fatalf("Create with legacy jobs %+v: %v", jobs, err)
		}
		for _, j := range jobs {
			if j.Count < 1 || j.RelPath == "" || seen[strings.ToUpper(j.RelPath)] {
				t.Fatalf("ReadLegacyIngesting job %+v", j)
			}
			seen[strings.ToUpper(j.RelPath)] = true
		}
	})
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
