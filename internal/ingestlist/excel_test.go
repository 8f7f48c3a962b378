package ingestlist_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// minuteRows are the seed's rows as a list re-saved with Excel's date
// display (yyyy/m/d h:mm) reads: the seconds are gone.
func minuteRows() []ingestlist.Row {
	var out []ingestlist.Row
	for _, r := range seedRows {
		r.Updated, r.UpdatedMinutes = r.Updated[:16]+":00", true
		if r.IngestedAt != "" {
			r.IngestedAt = r.IngestedAt[:16] + ":00"
		}
		out = append(out, r)
	}
	return out
}

// TestIssue15ExcelLists reads the seed's list as other programs save it
// again (testdata/excel, made by gen.sh with iconv and LibreOffice): every
// row is read, and the rewrite is the seed's form, byte for byte where the
// re-save kept the seconds.
func TestIssue15ExcelLists(t *testing.T) {
	seed := readTestdata(t, "seed_sample.tsv")
	for _, tt := range []struct {
		file    string
		enc     ingestlist.Encoding
		minutes bool
	}{
		{"iconv_cp932_crlf.tsv", ingestlist.ShiftJIS, false},
		{"iconv_utf16le.tsv", ingestlist.UTF16LE, false},
		{"iconv_utf16be.tsv", ingestlist.UTF16BE, false},
		{"cr_only.tsv", ingestlist.UTF8NoBOM, false},
		{"libreoffice_cp932.tsv", ingestlist.ShiftJIS, true},
		{"libreoffice_utf16.tsv", ingestlist.UTF16LE, true},
	} {
		t.Run(tt.file, func(t *testing.T) {
			l := mustRead(t, readTestdata(t, filepath.Join("excel", tt.file)))
			rows := seedRows
			if tt.minutes {
				rows = minuteRows()
			}
			want := view{Folders: seedFolders, Rows: rows, Lines: lines(rows...), DataLines: 4}
			if got := viewOf(l); !reflect.DeepEqual(got, want) {
				t.Fatalf("Read(%s) =\n%+v\nwant\n%+v", tt.file, got, want)
			}
			if l.Encoding != tt.enc {
				t.Errorf("Read(%s).Encoding = %q, want %q", tt.file, l.Encoding, tt.enc)
			}
			var buf bytes.Buffer
			if err := ingestlist.Write(&buf, l.Folders, l.Rows); err != nil {
				t.Fatal(err)
			}
			wantBytes := seed
			if tt.minutes {
				wantBytes = []byte(strings.NewReplacer("12:34:56", "12:34:00", "10:00:35", "10:00:00", "10:00:40", "10:00:00").Replace(string(seed)))
			}
			if !bytes.Equal(buf.Bytes(), wantBytes) {
				t.Errorf("Write(Read(%s)) =\n%q\nwant\n%q", tt.file, buf.Bytes(), wantBytes)
			}
		})
	}
}

// TestIssue15UnreadableList: a list in another form that cannot be read in
// full is refused with the line and the reason, never read as empty.
func TestIssue15UnreadableList(t *testing.T) {
	const head = "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"
	const folder = "クロール対象フォルダ\tC:\\data\\営業\t営業\r\n"
	const row = "営業\\a.xlsx\t2025/1/10 12:34\t100\t済\t1\t2026/9/19 10:00\t\t4\r\n"
	comma := readTestdata(t, filepath.Join("excel", "libreoffice_comma.csv"))
	badSJIS := append([]byte(folder[:len("クロール対象フォルダ")]), 0x81, 0x20) // not the seed's bytes
	for _, tt := range []struct {
		name string
		in   []byte
		line int
		why  string
	}{
		{"comma separated", comma, 1, "見出しの行"},
		{"columns", []byte(folder + head + row + "営業\\b.xlsx\t2025/1/10 12:34\t100\r\n"), 4, "列の数（3）が見出しの列の数（8）と合いません"},
		{"date", []byte(folder + head + row + "営業\\b.xlsx\t45667.52\t100\t済\t1\t\t\t4\r\n"), 4, "更新日時「45667.52」を日時"},
		{"size", []byte(folder + head + "営業\\b.xlsx\t2025/1/10 12:34\t1.04E+04\t済\t1\t\t\t4\r\n"), 3, "サイズ「1.04E+04」が数ではありません"},
		{"no header", []byte(folder + row), 2, "見出しの行"},
		{"only folder lines", []byte(folder), 2, "見出しの行"},
		{"bad Shift_JIS", append(badSJIS, "\r\n"...), 1, "Shift_JIS として読めない文字"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ingestlist.Read(bytes.NewReader(tt.in))
			var fe *ingestlist.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Read = %+v, %v, want a *FormatError", l, err)
			}
			if fe.Line != tt.line || !strings.Contains(fe.Reason, tt.why) {
				t.Errorf("Read error = line %d %q, want line %d and %q", fe.Line, fe.Reason, tt.line, tt.why)
			}
		})
	}
	// ReadFile names the file; the message is the seed's style.
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := os.WriteFile(path, comma, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ingestlist.ReadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), "取り込み一覧（"+path+"）の 1 行目を読み取れません: 見出しの行") {
		t.Errorf("ReadFile error = %v", err)
	}
}

// TestIssue15ExcelEdits: what Excel does to single rows of a list it saves
// again is undone (quotes, cells it pads or leaves out, dates, LF).
func TestIssue15ExcelEdits(t *testing.T) {
	const head = "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版"
	in := "クロール対象フォルダ\t\"C:\\data\\営業\"\t営業\t\t\t\t\t\n" + head + "\n" +
		"営業\\a.xlsx\t2025/01/10 12:34:05\t100\t済\t1\t2026/09/19 10:00\t\t4\n" +
		"\"営業\\b \"\"x\"\".xlsx\"\t2025-1-10 9:05\t200\t失敗\t\t2026/9/19 10:00:40\t\"開けません（\"\"a\"\"）\"\t\n" +
		"営業\\c.xlsx\t2025/1/10 12:34:05.120\t300\t未取り込み\n" +
		"営業\\d.xlsx\t2025/1/10T12:34:05\t400\t済\t2\t\t\t4\t\t\n" +
		"営業\\e.xlsx\t2025/1/10 12:34:05\t500\t済\t2\t\t\t4" // no last line break
	l := mustRead(t, []byte(in))
	want := []ingestlist.Row{
		{RelPath: `営業\a.xlsx`, Updated: "2025/01/10 12:34:05", Size: 100, State: ingestlist.Done, TSVCount: 1, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:00", Version: 4},
		{RelPath: `営業\b "x".xlsx`, Updated: "2025/01/10 09:05:00", UpdatedMinutes: true, Size: 200, State: ingestlist.Failed, IngestedAt: "2026/09/19 10:00:40", Error: `開けません（"a"）`},
		{RelPath: `営業\c.xlsx`, Updated: "2025/01/10 12:34:05", Size: 300, State: ingestlist.Pending},
		{RelPath: `営業\d.xlsx`, Updated: "2025/01/10 12:34:05", Size: 400, State: ingestlist.Done, TSVCount: 2, HasTSVCount: true, Version: 4},
		{RelPath: `営業\e.xlsx`, Updated: "2025/01/10 12:34:05", Size: 500, State: ingestlist.Done, TSVCount: 2, HasTSVCount: true, Version: 4},
	}
	if !reflect.DeepEqual(l.Folders, []ingestlist.Folder{{Path: `C:\data\営業`, Name: "営業"}}) {
		t.Errorf("Folders = %+v", l.Folders)
	}
	// b's path has a " and is rejected by the name rules; the rest read.
	if l.Rejected != 1 {
		t.Errorf("Rejected = %d, want 1", l.Rejected)
	}
	want = append(want[:1], want[2:]...)
	if !reflect.DeepEqual(l.Rows, want) {
		t.Errorf("Rows =\n%+v\nwant\n%+v", l.Rows, want)
	}
}

func TestSameUpdated(t *testing.T) {
	exact := ingestlist.Row{Updated: "2025/01/10 12:34:56"}
	minute := ingestlist.Row{Updated: "2025/01/10 12:34:00", UpdatedMinutes: true}
	for _, tt := range []struct {
		row  ingestlist.Row
		t    string
		want bool
	}{
		{exact, "2025/01/10 12:34:56", true},
		{exact, "2025/01/10 12:34:57", false},
		{minute, "2025/01/10 12:34:56", true},
		{minute, "2025/01/10 12:35:00", false},
		{minute, "2025/01/10 12:34", false},
	} {
		if got := tt.row.SameUpdated(tt.t); got != tt.want {
			t.Errorf("%+v.SameUpdated(%q) = %v, want %v", tt.row, tt.t, got, tt.want)
		}
	}
}
