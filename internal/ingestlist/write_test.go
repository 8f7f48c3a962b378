package ingestlist_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ingest_status.tsv")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ingestlist.WriteFile(path, seedFolders, seedRows); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := readTestdata(t, "seed_sample.tsv"); !bytes.Equal(got, want) {
		t.Fatalf("WriteFile wrote\n%q\nwant\n%q", got, want)
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ingest_status.tsv.tmp left behind: %v", err)
	}
	// Rewrite with fewer rows: the file shrinks to the new content.
	if err := ingestlist.WriteFile(path, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if want := "\uFEFF相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"; string(got) != want {
		t.Fatalf("WriteFile(no rows) wrote %q, want %q", got, want)
	}
}

func TestWriteFileInvalidRowKeepsOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := ingestlist.WriteFile(path, seedFolders, seedRows); err != nil {
		t.Fatal(err)
	}
	bad := append([]ingestlist.Row{}, seedRows...)
	bad[1].Size = -1
	if err := ingestlist.WriteFile(path, seedFolders, bad); !errors.Is(err, ingestlist.ErrInvalidRow) {
		t.Fatalf("WriteFile(negative size) error = %v, want ErrInvalidRow", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, readTestdata(t, "seed_sample.tsv")) {
		t.Fatal("a failed WriteFile changed the list")
	}
	if err := ingestlist.WriteFile(filepath.Join(path, "no", "such"), nil, nil); err == nil {
		t.Fatal("WriteFile into a missing folder succeeded")
	}
}

func TestWriteInvalidRows(t *testing.T) {
	tests := []struct {
		name string
		row  ingestlist.Row
	}{
		{"negative size", ingestlist.Row{RelPath: `a\b`, Size: -1}},
		{"negative TSV count", ingestlist.Row{RelPath: `a\b`, TSVCount: -2, HasTSVCount: true}},
		{"negative version", ingestlist.Row{RelPath: `a\b`, Version: -3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := ingestlist.Write(&buf, nil, []ingestlist.Row{okRow(`a\a`), tt.row})
			if !errors.Is(err, ingestlist.ErrInvalidRow) || buf.Len() != 0 {
				t.Fatalf("Write(%+v) = %v, %d bytes; want ErrInvalidRow and nothing written", tt.row, err, buf.Len())
			}
		})
	}
}

// TestWriteText checks the cell rules: TAB, CR and LF become spaces, an
// empty folder name gives a two-field line, a TSV count without
// HasTSVCount and version 0 are empty cells.
func TestWriteText(t *testing.T) {
	folders := []ingestlist.Folder{{Path: "C:\\a\tb", Name: "名\r\n前"}, {Path: `D:\x`}}
	rows := []ingestlist.Row{{
		RelPath: "営業\\a\tb.xlsx", Updated: "2025/01/10\n12:34:56", Size: 0, State: ingestlist.Failed,
		TSVCount: 5, IngestedAt: "x\ry", Error: "one\ttwo\r\nthree",
	}}
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, folders, rows); err != nil {
		t.Fatal(err)
	}
	want := "\uFEFF" +
		"クロール対象フォルダ\tC:\\a b\t名  前\r\n" +
		"クロール対象フォルダ\tD:\\x\r\n" +
		"相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n" +
		"営業\\a b.xlsx\t2025/01/10 12:34:56\t0\t失敗\t\tx y\tone two  three\t\r\n"
	if got := buf.String(); got != want {
		t.Fatalf("Write =\n%q\nwant\n%q", got, want)
	}
	l := mustRead(t, buf.Bytes())
	wantFolders := []ingestlist.Folder{{Path: `C:\a b`, Name: "名  前"}, {Path: `D:\x`}}
	if !reflect.DeepEqual(l.Folders, wantFolders) {
		t.Fatalf("Read(Write).Folders = %+v, want %+v", l.Folders, wantFolders)
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errDisk
	}
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	rows := make([]ingestlist.Row, 5000)
	for i := range rows {
		rows[i] = okRow(`営業\a.xlsx`)
	}
	for _, n := range []int{0, 1000, 300 << 10} {
		if err := ingestlist.Write(&failingWriter{n}, seedFolders, rows); !errors.Is(err, errDisk) {
			t.Errorf("Write(writer failing after %d bytes) error = %v, want %v", n, err, errDisk)
		}
	}
}
