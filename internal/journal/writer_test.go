package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/journal"
)

func TestWriterRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal", "ingest.tsv")
	at := time.Date(2026, 9, 19, 10, 0, 5, 0, time.Local)
	w, err := journal.Create(path, at, 4,
		[]journal.Job{{RelPath: `営業\2024\見積\B社.xlsx`, Count: 1}},
		[]string{`営業\2024\請求`})
	if err != nil {
		t.Fatalf("Create error: %v", err)
	}
	steps := []func() error{
		func() error { return w.Start(`営業\2024\見積\A社.xlsx`, 1) },
		func() error { return w.Start(`営業\2024\見積\B社.xlsx`, 2) },
		func() error { return w.Published(`営業\2024\見積`) },
		w.Rewriting,
		w.Ended,
		w.Close,
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d error: %v", i, err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := text(head, "回|2026/09/19 10:00:05|4", `持|営業\2024\見積\B社.xlsx|1`, `未|営業\2024\請求`,
		`始|営業\2024\見積\A社.xlsx|1`, `始|営業\2024\見積\B社.xlsx|2`, `出|営業\2024\見積`, "書", "終")
	if string(got) != want {
		t.Errorf("journal bytes =\n%q\nwant\n%q", got, want)
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind: %v", err)
	}
	l, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Skipped != 0 || l.Torn || len(l.Records) != 8 {
		t.Errorf("ReadFile = %+v, want 8 records, nothing skipped", l)
	}
	if got := l.Recover(keys(`a\1`, `a\2`, `a\3`, `a\4`)); !reflect.DeepEqual(got,
		journal.Recovery{Readable: true, Unpublished: []string{`営業\2024\請求`}}) {
		t.Errorf("Recover = %+v", got)
	}
	if err := w.Start(`営業\X.xlsx`, 1); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Start after Close error = %v, want os.ErrClosed", err)
	}
}

// TestCreateReplaces checks that Create replaces the previous run's journal
// whole and appends after the new header only.
func TestCreateReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest.tsv")
	if err := os.WriteFile(path, []byte(text(head, run4, `始|営業\Old.xlsx|1`)), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := journal.Create(path, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(`営業\New.xlsx`, 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := text(head, "回|2026/01/02 03:04:05|0", `始|営業\New.xlsx|1`); string(got) != want {
		t.Errorf("journal bytes = %q, want %q", got, want)
	}
}

// TestWriterRefusesWhatReaderSkips: a record the reader would skip is an
// error, and nothing is written.
func TestWriterRefusesWhatReaderSkips(t *testing.T) {
	dir := t.TempDir()
	at := time.Now()
	bad := []struct {
		name    string
		carried []journal.Job
		folders []string
	}{
		{"count 0", []journal.Job{{RelPath: `営業\A.xlsx`, Count: 0}}, nil},
		{"count too large", []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1_000_000_000}}, nil},
		{"no folder", []journal.Job{{RelPath: `A.xlsx`, Count: 1}}, nil},
		{"tab", []journal.Job{{RelPath: "営業\\A\t.xlsx", Count: 1}}, nil},
		{"dot dot", []journal.Job{{RelPath: `営業\..\A.xlsx`, Count: 1}}, nil},
		{"empty folder", nil, []string{""}},
		{"newline folder", nil, []string{"営業\r\n出\t営業"}},
	}
	for _, tt := range bad {
		path := filepath.Join(dir, "ingest.tsv")
		if _, err := journal.Create(path, at, 0, tt.carried, tt.folders); !errors.Is(err, journal.ErrInvalid) {
			t.Errorf("Create(%s) error = %v, want ErrInvalid", tt.name, err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Create(%s) wrote %s", tt.name, path)
		}
	}
	path := filepath.Join(dir, "ingest.tsv")
	w, err := journal.Create(path, at, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before, _ := os.ReadFile(path)
	for _, err := range []error{
		w.Start(`営業\A.xlsx`, 0),
		w.Start("営業\\A\n.xlsx", 1),
		w.Start(`営業`, 1),
		w.Published(`営業\..`),
		w.Published(""),
	} {
		if !errors.Is(err, journal.ErrInvalid) {
			t.Errorf("append of an invalid record error = %v, want ErrInvalid", err)
		}
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Errorf("invalid records changed the journal: %q", after)
	}
	if err := w.Start(`営業\A.xlsx`, 1); err != nil {
		t.Errorf("Start after refused records error = %v", err)
	}
}

func TestCreateNegativeRows(t *testing.T) {
	if _, err := journal.Create(filepath.Join(t.TempDir(), "j.tsv"), time.Now(), -1, nil, nil); err == nil {
		t.Error("Create(listRows -1) = nil error, want one")
	}
}

// TestAppendTo: a start appends its 試 and 出 records to the previous
// run's journal as it is; a last line cut by a kill is ended first, so
// that the records after it read.
func TestAppendTo(t *testing.T) {
	for _, tc := range []struct {
		name, before string
		skipped      int
	}{
		{"whole", text(head, run4, `始|営業\A.xlsx|1`), 0},
		{"torn", text(head, run4, `始|営業\A.xlsx|1`) + "始\t営業\\B", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ingest.tsv")
			if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			w, err := journal.AppendTo(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, step := range []func() error{
				func() error { return w.Publishing(`営業`, 2) },
				func() error { return w.Published(`営業`) },
				func() error { return w.Publishing(`営業\X`, 1) },
				w.Close,
			} {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			l, err := journal.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if l.Skipped != tc.skipped || l.Torn {
				t.Errorf("skipped %d, torn %v; want %d, false", l.Skipped, l.Torn, tc.skipped)
			}
			got := l.Recover(keys(`a\1`, `a\2`, `a\3`, `a\4`))
			if !reflect.DeepEqual(got.Publishing, map[string]int{`営業\X`: 1}) || len(got.Unpublished) != 0 {
				t.Errorf("Recover = %+v", got)
			}
		})
	}
	if _, err := journal.AppendTo(filepath.Join(t.TempDir(), "none.tsv")); err == nil {
		t.Errorf("AppendTo of a missing journal succeeded")
	}
	w, _ := journal.Create(filepath.Join(t.TempDir(), "j.tsv"), time.Now(), 0, nil, nil)
	defer w.Close()
	for _, bad := range []struct {
		folder string
		count  int
	}{{`営業`, -1}, {`..`, 1}, {"", 1}} {
		if err := w.Publishing(bad.folder, bad.count); !errors.Is(err, journal.ErrInvalid) {
			t.Errorf("Publishing(%q, %d) = %v, want ErrInvalid", bad.folder, bad.count, err)
		}
	}
}
