package ingestlist_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testutil"
)

// view is a List's exported content, for comparing.
type view struct {
	Folders       []ingestlist.Folder
	Rows          []ingestlist.Row
	Lines         []ingestlist.Line
	DataLines     int
	Rejected      int
	Ignored       int
	LegacyFolders []string
}

func viewOf(l *ingestlist.List) view {
	return view{l.Folders, l.Rows, l.Lines, l.DataLines, l.Rejected, l.Ignored, l.LegacyFolders}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	return testutil.Fixture(t, name)
}

func mustRead(t testing.TB, data []byte) *ingestlist.List {
	t.Helper()
	l, err := ingestlist.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return l
}

// lines numbers rows 0, 1, 2, … (each a path of its own) as Lines.
func lines(rows ...ingestlist.Row) []ingestlist.Line {
	var ls []ingestlist.Line
	for i := range rows {
		ls = append(ls, ingestlist.Line{Index: i, Row: i})
	}
	return ls
}

const seedError = "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"

var seedRows = []ingestlist.Row{
	{RelPath: `営業\2024\見積\A社.xlsx`, Updated: "2025/01/10 12:34:56", Size: 10420, State: ingestlist.Done,
		TSVCount: 3, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35", Version: 2},
	{RelPath: `営業\空ブック.xlsx`, Updated: "2025/01/10 12:34:56", Size: 8578, State: ingestlist.Done,
		TSVCount: 0, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35", Version: 2},
	{RelPath: `営業\秘密.xlsx`, Updated: "2025/01/10 12:34:56", Size: 15360, State: ingestlist.Failed,
		IngestedAt: "2026/09/19 10:00:40", Error: seedError},
	{RelPath: `2019年度\新規.docx`, Updated: "2026/09/18 09:00:00", Size: 20480, State: ingestlist.Pending},
}

var seedFolders = []ingestlist.Folder{
	{Path: `C:\data\営業`, Name: "営業"},
	{Path: `D:\old\2019年度`, Name: "2019年度"},
}

func okRow(rel string) ingestlist.Row {
	return ingestlist.Row{RelPath: rel, Updated: "2025/01/10 12:34:56", Size: 100, State: ingestlist.Done,
		TSVCount: 1, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35", Version: 4}
}

func TestSeedSampleRoundTrip(t *testing.T) {
	data := readTestdata(t, "seed_sample.tsv")
	if !bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) || bytes.Count(data, []byte("\r\n")) != 7 {
		t.Fatal("testdata/seed_sample.tsv must start with a BOM and have 7 CRLF lines")
	}
	l := mustRead(t, data)
	want := view{Folders: seedFolders, Rows: seedRows, Lines: lines(seedRows...), DataLines: 4}
	if got := viewOf(l); !reflect.DeepEqual(got, want) {
		t.Fatalf("Read(seed_sample.tsv) =\n%+v\nwant\n%+v", got, want)
	}
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, l.Folders, l.Rows); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("Write(Read(seed_sample.tsv)) =\n%q\nwant\n%q", buf.Bytes(), data)
	}
}

func TestReadTestdata(t *testing.T) {
	legacy7 := []ingestlist.Row{
		{RelPath: `営業\2024\見積\A社.xlsx`, Updated: "2025/01/10 12:34:56", Size: 10420, State: ingestlist.Done,
			TSVCount: 3, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:35"},
		{RelPath: `営業\秘密.xlsx`, Updated: "2025/01/10 12:34:56", Size: 15360, State: ingestlist.Failed,
			IngestedAt: "2026/09/19 10:00:40", Error: "ファイルを開けませんでした"},
		{RelPath: `総務\規程.docx`, Updated: "2024/04/01 08:00:00", Size: 30720, State: ingestlist.Pending},
	}
	folderLines := []ingestlist.Row{
		okRow(`営業\a.xlsx`),
		{RelPath: `2019年度\b.doc`, Updated: "2025/01/10 12:34:56", Size: 200, State: ingestlist.Done,
			TSVCount: 2, HasTSVCount: true, IngestedAt: "2026/09/19 10:00:36"},
	}
	lfRows := []ingestlist.Row{
		okRow(`営業\a.xlsx`),
		{RelPath: `営業\b.xlsx`, Updated: "2025/01/10 12:34:56", Size: 200, State: ingestlist.Pending},
	}
	acceptedRows := []ingestlist.Row{
		okRow(`aux.backup\a.xlsx`),
		okRow(`AUX\con.txt`),
		okRow(`営業\aux\nul.txt`),
		okRow(`営業\ 先頭空白.xlsx`),
		okRow(`営業\` + strings.Repeat("長", 255)),
		okRow(`営業\正しい.xlsx`),
	}
	var accepted []ingestlist.Line
	for i, index := range []int{4, 5, 6, 17, 23, 24} {
		accepted = append(accepted, ingestlist.Line{Index: index, Row: i})
	}
	failedA := ingestlist.Row{RelPath: `営業\A.XLSX`, Updated: "2025/01/10 12:34:56", Size: 100,
		State: ingestlist.Failed, IngestedAt: "2026/09/19 10:00:36", Error: "壊れています"}
	unknownState := okRow(`営業\状態.xlsx`)
	unknownState.State = "完了"
	version7 := okRow(`営業\版.xlsx`)
	version7.Version = 7

	tests := []struct {
		file string
		want view
	}{
		{"seed_sample.tsv", view{Folders: seedFolders, Rows: seedRows, Lines: lines(seedRows...), DataLines: 4}},
		{"legacy_7col.tsv", view{
			Folders:   []ingestlist.Folder{{Path: `C:\data\営業`}, {Path: `\\server\share\総務`}},
			Rows:      legacy7,
			Lines:     lines(legacy7...),
			DataLines: 4,
			Ignored:   1, // an eight-column line under a seven-column header
		}},
		{"legacy_folder_lines.tsv", view{
			Folders:   []ingestlist.Folder{{Path: `C:\data\営業`, Name: "営業"}, {Path: `D:\old\2019年度`}},
			Rows:      folderLines,
			Lines:     lines(folderLines...),
			DataLines: 2,
		}},
		{"legacy_folder_names.tsv", view{
			Folders:       []ingestlist.Folder{{Path: `C:\data\aux.backup`, Name: "aux.backup"}},
			Rows:          []ingestlist.Row{okRow(`aux.backup\a.xlsx`)},
			Lines:         []ingestlist.Line{{Index: 1, Row: 0}},
			DataLines:     2,
			Rejected:      5, // .. a/b a<U+0001>b, an empty name, the row under 名前.
			Ignored:       1, // a four-field folder line
			LegacyFolders: []string{"名前.", "末尾空白 ", "a:b"},
		}},
		{"rejected.tsv", view{
			Folders:   []ingestlist.Folder{{Path: `C:\data\営業`, Name: "営業"}},
			Rows:      acceptedRows,
			Lines:     accepted,
			DataLines: 25,
			Rejected:  19,
		}},
		{"lf_nobom.tsv", view{
			Folders:   []ingestlist.Folder{{Path: `C:\data\営業`, Name: "営業"}},
			Rows:      lfRows,
			Lines:     lines(lfRows...),
			DataLines: 2,
		}},
		{"malformed.tsv", view{
			Folders: []ingestlist.Folder{{Path: `C:\data\営業`, Name: "営業"}},
			// 営業\A.XLSX replaces 営業\a.xlsx at its position.
			Rows: []ingestlist.Row{failedA, unknownState, version7},
			// Each line gives the row of its path (営業\a.xlsx's is failedA's).
			Lines:     []ingestlist.Line{{Index: 0, Row: 0}, {Index: 10, Row: 1}, {Index: 11, Row: 0}, {Index: 12, Row: 2}},
			DataLines: 13,
			// the note before the header, a torn line, nine columns, and
			// sizes 10,420 / -1 / empty / too big, TSV数 x, 抽出版 +4
			Ignored: 9,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l := mustRead(t, readTestdata(t, tt.file))
			if got := viewOf(l); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Read(%s) =\n%+v\nwant\n%+v", tt.file, got, tt.want)
			}
			for _, r := range tt.want.Rows {
				got, ok := l.Lookup(r.RelPath)
				if !ok || got != r {
					t.Errorf("Lookup(%q) = %+v, %v, want %+v", r.RelPath, got, ok, r)
				}
			}
		})
	}
}

// TestRewrite reads each testdata list and writes it back; the bytes are
// kept in testdata/TestRewrite/<file>.golden (go test -update rewrites them).
func TestRewrite(t *testing.T) {
	for _, file := range testutil.Fixtures(t, "*.tsv") {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			l := mustRead(t, readTestdata(t, name))
			var buf bytes.Buffer
			if err := ingestlist.Write(&buf, l.Folders, l.Rows); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, testutil.FixturePath("TestRewrite", name+".golden"), buf.Bytes())
			// The rewrite reads back as the same folders and rows.
			again := mustRead(t, buf.Bytes())
			if !reflect.DeepEqual(again.Folders, l.Folders) || !reflect.DeepEqual(again.Rows, l.Rows) {
				t.Errorf("Read(rewrite of %s) = %+v %+v, want %+v %+v", name, again.Folders, again.Rows, l.Folders, l.Rows)
			}
		})
	}
}

// TestReadCutAtEveryOffset cuts a list (with appended duplicates) at every
// byte: Read never fails and returns only whole lines of the full list, in
// order, never a half row (a row cut inside its last column still has eight
// columns, so the unterminated last line must be dropped).
func TestReadCutAtEveryOffset(t *testing.T) {
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, seedFolders, seedRows); err != nil {
		t.Fatal(err)
	}
	later := seedRows[3]
	later.State, later.TSVCount, later.HasTSVCount, later.IngestedAt, later.Version = ingestlist.Done, 12, true, "2026/09/19 11:00:00", 12
	var tail bytes.Buffer
	if err := ingestlist.Write(&tail, nil, []ingestlist.Row{seedRows[2], later}); err != nil {
		t.Fatal(err)
	}
	_, rows, _ := bytes.Cut(tail.Bytes(), []byte("抽出版\r\n"))
	full := append(buf.Bytes(), rows...)

	written := append(append([]ingestlist.Row{}, seedRows...), later)
	all := mustRead(t, full)
	if len(all.Lines) != 6 || all.DataLines != 6 || len(all.Rows) != 4 {
		t.Fatalf("full list: %d lines, %d data lines, %d rows, want 6, 6, 4", len(all.Lines), all.DataLines, len(all.Rows))
	}
	for cut := 0; cut <= len(full); cut++ {
		l, err := ingestlist.Read(bytes.NewReader(full[:cut]))
		if err != nil {
			t.Fatalf("Read(cut at %d): %v", cut, err)
		}
		if !isPrefix(l.Lines, all.Lines) {
			t.Fatalf("Read(cut at %d).Lines = %+v, want a prefix of %+v", cut, l.Lines, all.Lines)
		}
		if !isPrefix(l.Folders, all.Folders) {
			t.Fatalf("Read(cut at %d).Folders = %+v, want a prefix of %+v", cut, l.Folders, all.Folders)
		}
		if l.DataLines != len(l.Lines) || l.Rejected != 0 || l.Ignored != 0 {
			t.Fatalf("Read(cut at %d): %d data lines, %d lines, %d rejected, %d ignored", cut, l.DataLines, len(l.Lines), l.Rejected, l.Ignored)
		}
		for _, r := range l.Rows {
			if !slices.Contains(written, r) {
				t.Fatalf("Read(cut at %d) returned row %+v, not a row of the full list", cut, r)
			}
		}
		// A cut just after a line's LF keeps that line.
		if cut == len(full) || (cut > 0 && full[cut-1] == '\n' && bytes.Count(full[:cut], []byte("\n")) > 3) {
			if want := bytes.Count(full[:cut], []byte("\n")) - 3; l.DataLines != want {
				t.Fatalf("Read(cut at %d).DataLines = %d, want %d", cut, l.DataLines, want)
			}
		}
	}
}

func isPrefix[T comparable](a, b []T) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// containsRow reports whether a line of l gives row i of l.Rows.
func containsRow(l *ingestlist.List, i int) bool {
	for _, ln := range l.Lines {
		if ln.Row == i {
			return true
		}
	}
	return false
}

func TestReadFileMissing(t *testing.T) {
	l, err := ingestlist.ReadFile(filepath.Join(t.TempDir(), "ingest_status.tsv"))
	if err != nil || len(l.Rows) != 0 || len(l.Folders) != 0 || l.DataLines != 0 {
		t.Fatalf("ReadFile(missing) = %+v, %v, want an empty list", l, err)
	}
	if _, ok := l.Lookup(`営業\a.xlsx`); ok {
		t.Fatal("Lookup on an empty list found a row")
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := os.WriteFile(path, readTestdata(t, "seed_sample.tsv"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ingestlist.ReadFile(path)
	if err != nil || !reflect.DeepEqual(l.Rows, seedRows) {
		t.Fatalf("ReadFile = %+v, %v, want the seed's rows", l, err)
	}
	if _, err := ingestlist.ReadFile(t.TempDir()); err == nil {
		t.Fatal("ReadFile(a folder) succeeded")
	}
}

type failingReader struct{ data []byte }

var errDisk = errors.New("disk on fire")

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errDisk
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadIOError(t *testing.T) {
	_, err := ingestlist.Read(&failingReader{readTestdata(t, "seed_sample.tsv")[:200]})
	if !errors.Is(err, errDisk) {
		t.Fatalf("Read(failing reader) error = %v, want %v", err, errDisk)
	}
}

func TestReadLongLine(t *testing.T) {
	var b bytes.Buffer
	b.Write(readTestdata(t, "seed_sample.tsv"))
	b.WriteString(`営業\長い.xlsx` + "\t" + strings.Repeat("x", 3<<20) + "\t1\t済\t1\t\t\t1\r\n")
	b.WriteString(`営業\後.xlsx` + "\t2025/01/10 12:34:56\t1\t済\t1\t\t\t1\r\n")
	l := mustRead(t, b.Bytes())
	if l.Ignored != 1 || l.DataLines != 6 || len(l.Rows) != 5 || l.Rows[4].RelPath != `営業\後.xlsx` || l.Lines[4].Index != 5 {
		t.Fatalf("Read(list with a 3 MiB line): ignored %d, data lines %d, rows %+v", l.Ignored, l.DataLines, l.Rows)
	}
}

func TestReadCRLFVariants(t *testing.T) {
	tests := []struct {
		name, in string
		want     []ingestlist.Row
	}{
		{"double BOM", "\uFEFF\uFEFF" + "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n" +
			"a\\b\tt\t1\t済\t\t\t\t\r\n", []ingestlist.Row{{RelPath: `a\b`, Updated: "t", Size: 1, State: ingestlist.Done}}},
		{"CR inside a cell", "\uFEFF相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\n" +
			"a\\b\tt\t1\t済\t\t\tx\ry\t\r\n",
			[]ingestlist.Row{{RelPath: `a\b`, Updated: "t", Size: 1, State: ingestlist.Done, Error: "x\ry"}}},
		{"later column after 抽出版", "\uFEFF相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\t新しい列\r\n" +
			"a\\b\tt\t1\t済\t\t\t\t3\tz\r\na\\c\tt\t1\t済\t\t\t\t3\r\n",
			[]ingestlist.Row{{RelPath: `a\b`, Updated: "t", Size: 1, State: ingestlist.Done, Version: 3}}},
		{"no header", "\uFEFFa\\b\tt\t1\t済\t\t\t\t\r\n", nil},
		{"unterminated header", "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustRead(t, []byte(tt.in))
			if !reflect.DeepEqual(l.Rows, tt.want) {
				t.Fatalf("Read(%q).Rows = %+v, want %+v", tt.in, l.Rows, tt.want)
			}
		})
	}
}

// TestDocExample checks that the example in the package comment is the
// seed's sample, byte for byte, with <TAB> for TAB.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), "testdata/seed_sample.tsv):\n//\n")
	if !ok {
		t.Fatal("doc.go: the example's introduction is missing")
	}
	var b strings.Builder
	b.WriteString("\uFEFF")
	for _, line := range strings.Split(after, "\n") {
		text, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			break
		}
		b.WriteString(strings.ReplaceAll(text, "<TAB>", "\t") + "\r\n")
	}
	if got, want := b.String(), string(readTestdata(t, "seed_sample.tsv")); got != want {
		t.Errorf("doc.go example =\n%q\nwant testdata/seed_sample.tsv\n%q", got, want)
	}
}
