package journal_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/fumibako/fumibako/internal/journal"
)

// TestReadFileTestdata reads each journal under testdata and recovers it
// against the ingest list it was written with.
func TestReadFileTestdata(t *testing.T) {
	// The ingest list after the rewrite at the start of the run: 4 data rows.
	list := []string{`営業\2024\見積\A社.xlsx`, `営業\2024\見積\B社.xlsx`, `2019年度\重い.xlsx`, `2019年度\新規.docx`}
	tests := []struct {
		file    string
		keys    []string
		version string
		records int
		skipped int
		torn    bool
		want    journal.Recovery
	}{
		{
			// A run that finished: 終 after 書, every folder published.
			file: "clean.tsv", keys: keys(append(list, `営業\2024\見積\A社.xlsx`, `2019年度\新規.docx`)...),
			version: "2", records: 9,
			want: journal.Recovery{Readable: true},
		},
		{
			// Killed with three jobs in flight, one carried job not handed out
			// and a cut last line.
			file: "killed.tsv", keys: keys(append(list, `営業\2024\見積\A社.xlsx`, `2019年度\新規.docx`)...),
			version: "2", records: 8, torn: true,
			want: journal.Recovery{
				Readable:    true,
				Unpublished: []string{`営業\2024\請求`, `営業\2024\見積`},
				Redo: []journal.Job{
					{RelPath: `営業\2024\見積\C社.xlsx`, Count: 1},
					{RelPath: `営業\2024\見積\B社.xlsx`, Count: 1},
					{RelPath: `2019年度\重い.xlsx`, Count: 2},
				},
			},
		},
		{
			// Killed while rewriting the ingest list: every 始 is redone, rows
			// are not looked at.
			file: "killed_rewrite.tsv", keys: keys(append(list, `営業\2024\見積\A社.xlsx`, `営業\2024\見積\B社.xlsx`)...),
			version: "2", records: 5,
			want: journal.Recovery{
				Readable: true,
				Redo: []journal.Job{
					{RelPath: `営業\2024\見積\A社.xlsx`, Count: 1},
					{RelPath: `営業\2024\見積\B社.xlsx`, Count: 1},
				},
			},
		},
		{
			// Another format version: discarded unread.
			file: "other_version.tsv", keys: keys(list...),
			version: "1",
			want:    journal.Recovery{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := journal.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatalf("ReadFile(%s) error: %v", tt.file, err)
			}
			if l.Missing || l.Version != tt.version || len(l.Records) != tt.records || l.Skipped != tt.skipped || l.Torn != tt.torn {
				t.Errorf("ReadFile(%s) = version %q, %d records, %d skipped, torn %v, missing %v; want %q, %d, %d, %v, false",
					tt.file, l.Version, len(l.Records), l.Skipped, l.Torn, l.Missing, tt.version, tt.records, tt.skipped, tt.torn)
			}
			if got := l.Recover(tt.keys); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Recover(%s) =\n  %+v\nwant\n  %+v", tt.file, got, tt.want)
			}
		})
	}
}

func TestReadRecords(t *testing.T) {
	in := text(head, run4, `持|営業\C.xlsx|1`, `未|営業\X`, `謎|a|b`, `始|営業\A.xlsx|2|余分`, `出|営業`, "書|余分", "終")
	l := mustRead(t, in)
	want := []journal.Record{
		{Kind: journal.KindRun, Fields: []string{"2026/09/19 10:00:00", "4"}},
		{Kind: journal.KindCarried, Fields: []string{`営業\C.xlsx`, "1"}},
		{Kind: journal.KindUnpublished, Fields: []string{`営業\X`}},
		{Kind: journal.KindStart, Fields: []string{`営業\A.xlsx`, "2"}},
		{Kind: journal.KindPublished, Fields: []string{`営業`}},
		{Kind: journal.KindRewriting},
		{Kind: journal.KindEnded},
	}
	if !reflect.DeepEqual(l.Records, want) || l.Skipped != 1 || l.Torn || l.Version != "2" {
		t.Errorf("Read(%q) = %+v, want records %+v, 1 skipped", in, l, want)
	}
}

func TestReadLongAndInvalidLines(t *testing.T) {
	long := "始\t営業\\" + strings.Repeat("あ", 1<<19) + ".xlsx\t1"
	in := text(head, run4, long, "始|営業\\\xff.xlsx|1", `始|営業\A.xlsx|1`)
	l := mustRead(t, in)
	if len(l.Records) != 2 || l.Skipped != 2 {
		t.Errorf("Read(long and invalid lines) = %d records, %d skipped; want 2, 2", len(l.Records), l.Skipped)
	}
	// A long torn last line is torn, not a record.
	l = mustRead(t, text(head)+long)
	if !l.Torn || len(l.Records) != 0 {
		t.Errorf("Read(long torn line) = %+v, want torn and no records", l)
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := journal.Read(io.MultiReader(strings.NewReader(text(head, run4)), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("Read(failing reader) error = %v, want %v", err, boom)
	}
}

// TestReadEveryCut cuts valid journals at every byte offset: Read never
// fails, never returns a record that is not a whole line of the original,
// and Recover never panics.
func TestReadEveryCut(t *testing.T) {
	for _, name := range []string{"clean.tsv", "killed.tsv", "killed_rewrite.tsv"} {
		full, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		whole := mustRead(t, string(full)).Records
		for n := 0; n <= len(full); n++ {
			cut := full[:n]
			l, err := journal.Read(bytes.NewReader(cut))
			if err != nil {
				t.Fatalf("Read(%s[:%d]) error: %v", name, n, err)
			}
			// Every record read from the cut is the record at the same place
			// in the whole file: no half record ever appears.
			if len(l.Records) > len(whole) || len(l.Records) > 0 && !reflect.DeepEqual(l.Records, whole[:len(l.Records)]) {
				t.Fatalf("Read(%s[:%d]) records = %+v, want a prefix of %+v", name, n, l.Records, whole)
			}
			// Exactly the lines ending before the cut are read.
			lines := bytes.Count(cut, []byte("\n"))
			if l.Readable() && len(l.Records) != lines-1 {
				t.Fatalf("Read(%s[:%d]) = %d records, want %d (the complete lines after 版)", name, n, len(l.Records), lines-1)
			}
			if l.Torn != (n > 0 && cut[n-1] != '\n' && lines > 0) && l.Readable() {
				t.Fatalf("Read(%s[:%d]).Torn = %v", name, n, l.Torn)
			}
			l.Recover(nil)
			l.Recover(keys(`営業\2024\見積\A社.xlsx`, "", `2019年度\新規.docx`, "", "", "", "", ""))
		}
	}
}
