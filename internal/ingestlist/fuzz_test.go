package ingestlist_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/workspace"
)

// sanitize is what Write does to text: TAB, CR and LF become spaces.
var sanitize = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace

func sanitizeRow(r ingestlist.Row) ingestlist.Row {
	r.RelPath, r.Updated, r.IngestedAt, r.Error = sanitize(r.RelPath), sanitize(r.Updated), sanitize(r.IngestedAt), sanitize(r.Error)
	r.State = ingestlist.State(sanitize(string(r.State)))
	if !r.HasTSVCount {
		r.TSVCount = 0
	}
	r.UpdatedMinutes = false // written with :00, read back as seconds
	return r
}

func FuzzRead(f *testing.F) {
	testutil.AddSeeds(f, "*.tsv", filepath.Join("excel", "*.*sv"))
	f.Add([]byte("相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\r\na\\b\tt\t1\t済\t\t\t\r\n"))
	f.Add([]byte("\uFEFF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ingestlist.Read(bytes.NewReader(data))
		var fe *ingestlist.FormatError
		if errors.As(err, &fe) {
			// Only a list in another form than the seed's may be refused.
			if bytes.HasPrefix(data, []byte("\uFEFF")) || fe.Line < 1 {
				t.Fatalf("Read(native list) = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		keys := map[string]bool{}
		for i, r := range l.Rows {
			if !ingestlist.ValidRelPath(r.RelPath) || keys[r.Key()] || r.Size < 0 || r.TSVCount < 0 || r.Version < 0 {
				t.Fatalf("bad row %+v", r)
			}
			keys[r.Key()] = true
			if !containsRow(l, i) {
				t.Fatalf("row %+v is on no line", r)
			}
		}
		last := -1
		for _, ln := range l.Lines {
			if ln.Index <= last || ln.Index >= l.DataLines {
				t.Fatalf("line index %d after %d, %d data lines", ln.Index, last, l.DataLines)
			}
			last = ln.Index
		}
		for _, fo := range l.Folders {
			if fo.Name != "" && !workspace.TestStoredIndexName(fo.Name) {
				t.Fatalf("bad folder %+v", fo)
			}
		}
		for _, name := range l.LegacyFolders {
			if workspace.TestStoredIndexName(name) || !workspace.TestPlainFolderName(name) {
				t.Fatalf("bad legacy folder %q", name)
			}
		}
		// The rewrite reads back as the same list, text sanitised.
		var buf bytes.Buffer
		if err := ingestlist.Write(&buf, l.Folders, l.Rows); err != nil {
			t.Fatalf("Write(Read(data)): %v", err)
		}
		again := mustRead(t, buf.Bytes())
		var wantFolders []ingestlist.Folder
		for _, fo := range l.Folders {
			wantFolders = append(wantFolders, ingestlist.Folder{Path: sanitize(fo.Path), Name: fo.Name})
		}
		var wantRows []ingestlist.Row
		for _, r := range l.Rows {
			wantRows = append(wantRows, sanitizeRow(r))
		}
		if !reflect.DeepEqual(again.Folders, wantFolders) || !reflect.DeepEqual(again.Rows, wantRows) ||
			again.DataLines != len(l.Rows) || again.Rejected != 0 || again.Ignored != 0 {
			t.Fatalf("Read(Write(Read(data))) = %+v\nwant folders %+v rows %+v", viewOf(again), wantFolders, wantRows)
		}
	})
}

// FuzzRoundTrip writes a folder and rows and reads them back.
func FuzzRoundTrip(f *testing.F) {
	for _, r := range seedRows {
		f.Add(r.RelPath, r.Updated, r.Size, string(r.State), r.TSVCount, r.HasTSVCount, r.IngestedAt, r.Error, r.Version, `C:\data\営業`, "営業")
	}
	f.Add(`名前.\a`, "", int64(-1), "済", -1, true, "", "a\tb\r\nc", -1, "", "名前.")
	f.Add(`営業\別.XLSX`, "x\r", int64(0), "\n", 0, false, "\t", "", 0, "p\r", "")
	f.Fuzz(func(t *testing.T, rel, updated string, size int64, state string, tsv int, hasTSV bool,
		ingested, errText string, version int, folderPath, folderName string) {
		row := ingestlist.Row{RelPath: rel, Updated: updated, Size: size, State: ingestlist.State(state),
			TSVCount: tsv, HasTSVCount: hasTSV, IngestedAt: ingested, Error: errText, Version: version}
		other := okRow(`営業\別.xlsx`)
		rows := []ingestlist.Row{row, other, row}
		folders := []ingestlist.Folder{{Path: folderPath, Name: folderName}}
		var buf bytes.Buffer
		err := ingestlist.Write(&buf, folders, rows)
		if size < 0 || (hasTSV && tsv < 0) || version < 0 {
			if !errors.Is(err, ingestlist.ErrInvalidRow) {
				t.Fatalf("Write(%+v) error = %v, want ErrInvalidRow", row, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Write: %v", err)
		}
		l := mustRead(t, buf.Bytes())

		want := view{DataLines: 3}
		name := sanitize(folderName)
		switch {
		case name == "" || workspace.TestStoredIndexName(name):
			want.Folders = []ingestlist.Folder{{Path: sanitize(folderPath), Name: name}}
		case workspace.TestPlainFolderName(name):
			want.LegacyFolders = []string{name}
		default:
			want.Rejected++
		}
		clean := sanitizeRow(row)
		valid := ingestlist.ValidRelPath(clean.RelPath)
		switch {
		case !valid:
			want.Rows = []ingestlist.Row{other}
		case clean.Key() == other.Key():
			want.Rows = []ingestlist.Row{clean}
		default:
			want.Rows = []ingestlist.Row{clean, other}
		}
		for i, r := range []ingestlist.Row{clean, other, clean} {
			if i != 1 && !valid {
				want.Rejected++
				continue
			}
			pos := slices.IndexFunc(want.Rows, func(w ingestlist.Row) bool { return w.Key() == r.Key() })
			want.Lines = append(want.Lines, ingestlist.Line{Index: i, Row: pos})
		}
		if got := viewOf(l); !reflect.DeepEqual(got, want) {
			t.Fatalf("Read(Write(%+v)) =\n%+v\nwant\n%+v", row, got, want)
		}
	})
}
