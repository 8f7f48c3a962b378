package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

func TestParsePendingRemove(t *testing.T) {
	old := journal.Removal{RelPath: `営業\2024\見積\旧.xlsx`, Folder: `営業\2024\見積`}
	top := journal.Removal{RelPath: `営業\古い.docx`, Folder: `営業`}
	tests := []struct {
		name string
		in   string
		want []journal.Removal
	}{
		{"two lines", text(`営業\2024\見積\旧.xlsx|営業\2024\見積`, `営業\古い.docx|営業`), []journal.Removal{old, top}},
		{"LF, no BOM", "営業\\古い.docx\t営業\n", []journal.Removal{top}},
		{"torn last line dropped", text(`営業\古い.docx|営業`) + "営業\\2024\\見積\\旧.xlsx\t営業\\20", []journal.Removal{top}},
		{"extra columns ignored", text(`営業\古い.docx|営業|余分`), []journal.Removal{top}},
		{"one column skipped", text(`営業\古い.docx`), nil},
		{"bad paths skipped", text(`..\古い.docx|営業`, `営業\古い.docx|..`, `古い.docx|営業`, `営業\古い.docx|`), nil},
		{"repeats kept once", text(`営業\古い.docx|営業`, `営業\古い.DOCX|営業`), []journal.Removal{top}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := journal.ParsePendingRemove(strings.NewReader(tt.in))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParsePendingRemove(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestPendingRemoveFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pending_remove.tsv")
	if rs, err := journal.ReadPendingRemove(path); rs != nil || err != nil {
		t.Fatalf("ReadPendingRemove(missing) = %+v, %v; want nil, nil", rs, err)
	}
	a := journal.Removal{RelPath: `営業\2024\見積\旧.xlsx`, Folder: `営業\2024\見積`}
	b := journal.Removal{RelPath: `営業\古い.docx`, Folder: `営業`}
	c := journal.Removal{RelPath: `営業\2024\見積\旧2.xlsx`, Folder: `営業\2024\見積`}
	if err := journal.WritePendingRemove(path, []journal.Removal{a, b}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != text(`営業\2024\見積\旧.xlsx|営業\2024\見積`, `営業\古い.docx|営業`) {
		t.Errorf("pending_remove.tsv bytes = %q", got)
	}
	if err := journal.AddPendingRemove(path, []journal.Removal{b, c}); err != nil {
		t.Fatal(err)
	}
	if rs, err := journal.ReadPendingRemove(path); err != nil || !reflect.DeepEqual(rs, []journal.Removal{a, b, c}) {
		t.Errorf("after AddPendingRemove = %+v, %v; want a, b, c", rs, err)
	}
	// Publishing 営業\2024\見積 drops a and c; the spelling of the folder
	// does not matter.
	if err := journal.DropPublished(path, `営業\2024\見積`); err != nil {
		t.Fatal(err)
	}
	if rs, err := journal.ReadPendingRemove(path); err != nil || !reflect.DeepEqual(rs, []journal.Removal{b}) {
		t.Errorf("after DropPublished = %+v, %v; want b", rs, err)
	}
	if err := journal.DropPublished(path, `営業\その他`); err != nil {
		t.Fatal(err)
	}
	// The last folder published: the file is deleted.
	if err := journal.DropPublished(path, `営業`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pending_remove.tsv still there after its last folder was published: %v", err)
	}
	if err := journal.DropPublished(path, `営業`); err != nil {
		t.Errorf("DropPublished on a missing file error = %v", err)
	}
	if err := journal.WritePendingRemove(path, []journal.Removal{{RelPath: "営業\\a\tb", Folder: "営業"}}); !errors.Is(err, journal.ErrInvalid) {
		t.Errorf("WritePendingRemove(TAB in path) error = %v, want ErrInvalid", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid removal wrote the file")
	}
}

func TestReadPendingRemoveTestdata(t *testing.T) {
	got, err := journal.ReadPendingRemove(filepath.Join("testdata", "pending_remove.tsv"))
	want := []journal.Removal{
		{RelPath: `営業\2024\見積\旧.xlsx`, Folder: `営業\2024\見積`},
		{RelPath: `営業\古い.docx`, Folder: `営業`},
		{RelPath: `営業\2024\見積\旧2.xlsx`, Folder: `営業\2024\見積`},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadPendingRemove(testdata) = %+v, %v; want %+v", got, err, want)
	}
}

func TestWithoutFolder(t *testing.T) {
	rs := []journal.Removal{{RelPath: `a\1`, Folder: `a`}, {RelPath: `a\b\2`, Folder: `a\b`}, {RelPath: `A\3`, Folder: `A`}}
	if got := journal.WithoutFolder(rs, `a`); !reflect.DeepEqual(got, rs[1:2]) {
		t.Errorf("WithoutFolder(a) = %+v, want %+v", got, rs[1:2])
	}
}
