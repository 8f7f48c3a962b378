package journal_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

func TestReadLegacyIngesting(t *testing.T) {
	a := journal.Job{RelPath: `営業\2024\見積\A社.xlsx`, Count: 1}
	b := journal.Job{RelPath: `2019年度\重い.xlsx`, Count: 2}
	tests := []struct {
		name string
		in   string
		want []journal.Job
	}{
		{"utf-8 BOM CRLF", "\uFEFF1\t営業\\2024\\見積\\A社.xlsx\r\n2\t2019年度\\重い.xlsx\r\n", []journal.Job{a, b}},
		{"no BOM LF", "1\t営業\\2024\\見積\\A社.xlsx\n2\t2019年度\\重い.xlsx\n", []journal.Job{a, b}},
		{"last line without newline is kept", "1\t営業\\2024\\見積\\A社.xlsx\r\n2\t2019年度\\重い.xlsx", []journal.Job{a, b}},
		{"utf-16 BE BOM", utf16BE("\uFEFF1\t営業\\2024\\見積\\A社.xlsx\r\n"), []journal.Job{a}},
		{"three fields", "1\t営業\\A.xlsx\tx\r\n", nil},
		{"one field", "営業\\A.xlsx\r\n", nil},
		{"count 0", "0\t営業\\A.xlsx\r\n", nil},
		{"negative count", "-1\t営業\\A.xlsx\r\n", nil},
		{"count with spaces", " 1\t営業\\A.xlsx\r\n", nil},
		{"empty path", "1\t\r\n", nil},
		{"path without index", "1\tA.xlsx\r\n", nil},
		{"path leaving the index", "1\t営業\\..\\..\\A.xlsx\r\n", nil},
		{"not UTF-8 (ANSI bytes)", "1\t\x89\x63\x8b\xc6\\A.xlsx\r\n", nil},
		{"later line wins, first order kept", "1\t営業\\A.xlsx\r\n1\t営業\\B.xlsx\r\n3\t営業\\a.XLSX\r\n",
			[]journal.Job{{RelPath: `営業\a.XLSX`, Count: 3}, {RelPath: `営業\B.xlsx`, Count: 1}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := journal.ReadLegacyIngesting(strings.NewReader(tt.in)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ReadLegacyIngesting(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func utf16BE(s string) string {
	var b []byte
	for _, r := range s {
		if r > 0xFFFF {
			panic("test helper: BMP only")
		}
		b = append(b, byte(r>>8), byte(r))
	}
	return string(b)
}

func TestReadLegacyIngestingFile(t *testing.T) {
	want := []journal.Job{{RelPath: `営業\2024\見積\A社.xlsx`, Count: 1}, {RelPath: `2019年度\重い.xlsx`, Count: 2}}
	for _, name := range []string{"ingesting.txt", "ingesting_utf16.txt"} {
		got, err := journal.ReadLegacyIngestingFile(filepath.Join("testdata", name))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ReadLegacyIngestingFile(%s) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	got, err := journal.ReadLegacyIngestingFile(filepath.Join(t.TempDir(), "ingesting.txt"))
	if got != nil || err != nil {
		t.Errorf("ReadLegacyIngestingFile(missing) = %+v, %v; want nil, nil", got, err)
	}
}
