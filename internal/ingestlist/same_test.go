package ingestlist_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestWriteFileIfChanged: a list that already holds what would be written
// is left alone (same bytes, same file, same time); any difference, a byte
// more or less included, rewrites it as WriteFile does.
func TestWriteFileIfChanged(t *testing.T) {
	changed := append([]ingestlist.Row{}, seedRows...)
	changed[1].Size++
	tests := []struct {
		name    string
		before  func(t *testing.T, path string) // the file as found
		folders []ingestlist.Folder
		rows    []ingestlist.Row
		wrote   bool
	}{
		{name: "same list", before: seedFile, folders: seedFolders, rows: seedRows},
		{name: "a row changed", before: seedFile, folders: seedFolders, rows: changed, wrote: true},
		{name: "a row less", before: seedFile, folders: seedFolders, rows: seedRows[:len(seedRows)-1], wrote: true},
		{name: "a folder less", before: seedFile, folders: seedFolders[:1], rows: seedRows, wrote: true},
		{name: "a row appended to the file", before: func(t *testing.T, path string) {
			seedFile(t, path)
			a, err := ingestlist.OpenAppender(path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if err := a.Append(seedRows[0]); err != nil {
				t.Fatal(err)
			}
		}, folders: seedFolders, rows: seedRows, wrote: true},
		{name: "a torn line at the end", before: func(t *testing.T, path string) {
			seedFile(t, path)
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.WriteString(`営業\x`)
		}, folders: seedFolders, rows: seedRows, wrote: true},
		{name: "no file", before: func(*testing.T, string) {}, folders: seedFolders, rows: seedRows, wrote: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ingest_status.tsv")
			tt.before(t, path)
			old, _ := os.Stat(path)
			if old != nil {
				// A rewrite would give the file a later time.
				past := time.Now().Add(-time.Hour)
				if err := os.Chtimes(path, past, past); err != nil {
					t.Fatal(err)
				}
				old, _ = os.Stat(path)
			}
			wrote, err := ingestlist.WriteFileIfChanged(path, tt.folders, tt.rows)
			if err != nil || wrote != tt.wrote {
				t.Fatalf("WriteFileIfChanged = %v, %v; want %v, nil", wrote, err, tt.wrote)
			}
			var want bytes.Buffer
			if err := ingestlist.Write(&want, tt.folders, tt.rows); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("the list holds\n%q\nwant\n%q", got, want.Bytes())
			}
			now, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if kept := old != nil && os.SameFile(old, now) && now.ModTime().Equal(old.ModTime()); kept == tt.wrote {
				t.Errorf("file kept (same inode and time) = %v, want %v", kept, !tt.wrote)
			}
		})
	}
}

func seedFile(t *testing.T, path string) {
	t.Helper()
	if err := ingestlist.WriteFile(path, seedFolders, seedRows); err != nil {
		t.Fatal(err)
	}
}
