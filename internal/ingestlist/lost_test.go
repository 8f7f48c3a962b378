package ingestlist_test

import (
	"bytes"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// cp932 encodes text as Excel's "Text (Tab delimited)" on a Japanese
// Windows saves it; text holds `?` where Excel lost a character.
func cp932(t testing.TB, text string) []byte {
	t.Helper()
	b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(text))
	if err != nil {
		t.Fatalf("cp932(%q): %v", text, err)
	}
	return b
}

func TestMatchLost(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{`営業\?.xlsx`, `営業\😀.xlsx`, true},    // one ? per character
		{`営業\??.xlsx`, `営業\😀.xlsx`, true},   // one ? per UTF-16 unit
		{`営業\??.xlsx`, `営業\ab.xlsx`, true},  // or two characters
		{`営業\?.xlsx`, `営業\ab.xlsx`, false},  // one ? is one character
		{`営業\???.xlsx`, `営業\😀.xlsx`, false}, // one left over
		{`営業\???.xlsx`, `営業\😀a.xlsx`, true},
		{`営業\?野家.docx`, `営業\𠮷野家.docx`, true},
		{`営業\??報告.pptx`, `営業\한국報告.pptx`, true},
		{`営業\caf?.xlsx`, `営業\CAFÉ.XLSX`, true}, // case-insensitive
		{`営業\a?b.xlsx`, `営業\a\b.xlsx`, false},  // never the separator
		{`営業\?.xlsx`, `営業\😀.docx`, false},
		{`?業\a.xlsx`, `営業\a.xlsx`, true},
		{`営業\a.xlsx`, `営業\a.xlsx`, true},
		{`営業\a.xlsx`, `営業\a.xlsx.bak`, false},
	}
	for _, tt := range tests {
		if got := ingestlist.MatchLost(tt.pattern, tt.name); got != tt.want {
			t.Errorf("MatchLost(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// TestIssue36LostNames: a list Excel saved as cp932, whose names lost
// characters (`?`), keeps those rows in Lost with their line numbers
// instead of rejecting them (which forgot a 失敗 state); Resolve puts one
// among the rows under the file's name.
func TestIssue36LostNames(t *testing.T) {
	const head = "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"
	in := cp932(t, "クロール対象フォルダ\tC:\\data\\営業\t営業\r\n"+head+
		"営業\\普通.xlsx\t2025/1/10 12:34\t100\t済\t1\t2026/9/19 10:00\t\t4\r\n"+
		"営業\\?報告.xlsx\t2025/1/10 12:34\t200\t失敗\t\t2026/9/19 10:00\t開けません\t\r\n"+
		"営業\\a\"b.xlsx\t2025/1/10 12:34\t300\t済\t1\t2026/9/19 10:00\t\t4\r\n"+
		"営業\\??\\??.docx\t2025/1/10 12:34\t400\t済\t1\t2026/9/19 10:00\t\t4\r\n")
	l := mustRead(t, in)
	if l.Encoding != ingestlist.ShiftJIS || l.Rejected != 1 || len(l.Rows) != 1 || l.Rows[0].RelPath != `営業\普通.xlsx` {
		t.Fatalf("Read: encoding %s, rejected %d, rows %+v", l.Encoding, l.Rejected, l.Rows)
	}
	var got []string
	for _, lr := range l.Lost {
		got = append(got, lr.Row.RelPath+" "+string(lr.Row.State))
	}
	if want := []string{`営業\?報告.xlsx 失敗`, `営業\??\??.docx 済`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Lost = %q, want %q", got, want)
	}
	if l.Lost[0].Line != 4 || l.Lost[1].Line != 6 || l.Lost[0].Index != 1 || l.Lost[1].Index != 3 {
		t.Errorf("Lost lines %+v", l.Lost)
	}
	if !l.Lost[0].SameFile(200, "2025/01/10 12:34:56") || l.Lost[0].SameFile(201, "2025/01/10 12:34:56") ||
		l.Lost[0].SameFile(200, "2025/01/10 12:35:00") {
		t.Errorf("SameFile compares size and time to the minute the list kept")
	}
	l.Resolve(l.Lost[0], `営業\😀報告.xlsx`)
	r, ok := l.Lookup(`営業\😀報告.xlsx`)
	if !ok || r.State != ingestlist.Failed || r.Error != "開けません" {
		t.Fatalf("after Resolve: %+v %v", r, ok)
	}
	if want := []ingestlist.Line{{Index: 0, Row: 0}, {Index: 1, Row: 1}}; !reflect.DeepEqual(l.Lines, want) {
		t.Errorf("Lines after Resolve = %+v, want %+v", l.Lines, want)
	}
	// A list in the seed's form holds no lost names: our writer never
	// writes `?`, so the row is rejected and named.
	native := "\uFEFF" + head + "営業\\?報告.xlsx\t2025/01/10 12:34:56\t200\t失敗\t\t\t開けません\t\r\n"
	if l := mustRead(t, []byte(native)); len(l.Lost) != 0 || l.Rejected != 1 || len(l.Skips) != 1 || l.Skips[0].Line != 2 {
		t.Errorf("native list: lost %+v, rejected %d, skips %+v", l.Lost, l.Rejected, l.Skips)
	}
}

// TestIssue36SkipsNamed: every line a list in the seed's form passes over
// is named with its line number and reason (before, a NUL or a garbage
// line went without a trace).
func TestIssue36SkipsNamed(t *testing.T) {
	const head = "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"
	const ok = "\t2025/01/10 12:34:56\t10\t済\t1\t2026/09/19 10:00:35\t\t2\r\n"
	in := "\uFEFFクロール対象フォルダ\tC:\\data\\営業\t営業\r\n" +
		"ごみの行\r\n" + // 2
		head +
		"営業\\a.xlsx" + ok + // 4
		"営業\\b\x00.xlsx" + ok + // 5
		"営業\\c.xlsx\t2025\r\n" + // 6
		strings.Repeat("\x01ごみ", 1<<20) + "\r\n" + // 7
		"営業\\d.xlsx\t2025/01/10 12:34:56\tx\t済\t1\t\t\t2\r\n" + // 8
		"\r\n" + // 9: blank, not a skip
		"クロール対象フォルダ\tC:\\x\t..\r\n" + // 10: after the header, a data line
		"営業\\e.xlsx\t2025/01/10" // 11: cut by a crash
	l := mustRead(t, []byte(in))
	want := []ingestlist.Skip{
		{Line: 2, Reason: "見出しの行より前にある、クロール対象フォルダの行でも見出しでもない行です"},
		{Line: 5, Reason: "インデックス名・パスに制御文字（NUL など）が入っています"},
		{Line: 6, Reason: "列の数（2）が見出しの列の数（8）と合いません"},
		{Line: 7, Reason: "行が長すぎます（1 MiB を超えています）"},
		{Line: 8, Reason: "サイズ「x」が数ではありません"},
		{Line: 10, Reason: "列の数（3）が見出しの列の数（8）と合いません"},
		{Line: 11, Reason: "最後の行が改行で終わっていません（書き込みの途中で止まった行です）"},
	}
	if !reflect.DeepEqual(l.Skips, want) {
		t.Errorf("Skips =\n%+v\nwant\n%+v", l.Skips, want)
	}
	if l.Ignored != 5 || l.Rejected != 1 || len(l.Rows) != 1 {
		t.Errorf("ignored %d, rejected %d, rows %+v", l.Ignored, l.Rejected, l.Rows)
	}
	if got := l.Skips[1].String(); got != "取り込み一覧の 5 行目を読み飛ばしました: インデックス名・パスに制御文字（NUL など）が入っています" {
		t.Errorf("Skip.String() = %q", got)
	}
}

// garbage yields n bytes of one garbage line, then the rest, without
// holding the line.
type garbage struct {
	n    int64
	rest *bytes.Reader
}

func (g *garbage) Read(p []byte) (int, error) {
	if g.n <= 0 {
		return g.rest.Read(p)
	}
	k := min(int64(len(p)), g.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	g.n -= k
	return int(k), nil
}

// TestIssue36GarbageLineBounded: a huge garbage line (the probe's was
// 1 GiB; 256 MiB here) is skipped while it streams by: reading the list
// allocates a small fraction of it, and the lines after it are read.
func TestIssue36GarbageLineBounded(t *testing.T) {
	const head = "\uFEFF相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"
	const size = 256 << 20
	in := io.MultiReader(strings.NewReader(head+"営業\\a.xlsx\t2025/01/10 12:34:56\t10\t済\t1\t\t\t2\r\n"),
		&garbage{n: size, rest: bytes.NewReader([]byte("\r\n営業\\b.xlsx\t2025/01/10 12:34:56\t10\t済\t1\t\t\t2\r\n"))})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := ingestlist.Read(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Rows) != 2 || l.Ignored != 1 || len(l.Skips) != 1 || l.Skips[0].Line != 3 {
		t.Fatalf("rows %d, ignored %d, skips %+v", len(l.Rows), l.Ignored, l.Skips)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading a %d MiB line allocated %d MiB", size>>20, alloc>>20)
	}
}
