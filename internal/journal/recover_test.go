package journal_test

import (
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

// Rows of the ingest list used by the cases: after the rewrite at the start
// of the run it held rewritten (4 data lines); rows appended during the run
// follow.
var rewritten = []string{`営業\A.xlsx`, `営業\B.xlsx`, `営業\C.xlsx`, `2019年度\D.docx`}

func appended(paths ...string) []string {
	return keys(append(append([]string{}, rewritten...), paths...)...)
}

const head = "版|2"
const run4 = "回|2026/09/19 10:00:00|4"

// TestRecover has one case per sentence of the seed's recovery rules
// (ingest-list.ja.md, ジャーナルの形, 次回の実行時), named after the rule,
// and one per decision this package takes where the seed is silent.
func TestRecover(t *testing.T) {
	tests := []struct {
		name    string
		journal string
		keys    []string
		want    journal.Recovery
	}{
		// 書き出していないフォルダ: 「始」または「未」があって、そのあとの「出」が無いフォルダ（終 があっても）。
		{
			name:    "unpublished/始 without later 出",
			journal: text(head, run4, `始|営業\2024\見積\A社.xlsx|1`),
			keys:    appended(`営業\2024\見積\A社.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\2024\見積`}},
		},
		{
			name:    "unpublished/始 in an index's top folder",
			journal: text(head, run4, `始|営業\A.xlsx|1`),
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業`}},
		},
		{
			name:    "unpublished/未 without later 出",
			journal: text(head, run4, `未|営業\2024\請求`),
			keys:    appended(),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\2024\請求`}},
		},
		{
			name:    "unpublished/始 and 未 followed by 出 are published",
			journal: text(head, run4, `未|営業\2024\請求`, `始|営業\2024\見積\A社.xlsx|1`, `出|営業\2024\見積`, `出|営業\2024\請求`),
			keys:    appended(`営業\2024\見積\A社.xlsx`),
			want:    journal.Recovery{Readable: true},
		},
		{
			name:    "unpublished/出 before a later 始 does not count",
			journal: text(head, run4, `始|営業\X\A.xlsx|1`, `出|営業\X`, `始|営業\X\B.xlsx|1`),
			keys:    appended(`営業\X\A.xlsx`, `営業\X\B.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\X`}},
		},
		{
			name:    "unpublished/出 of another folder does not count",
			journal: text(head, run4, `始|営業\X\Y\A.xlsx|1`, `出|営業\X`),
			keys:    appended(`営業\X\Y\A.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\X\Y`}},
		},
		{
			name:    "unpublished/even with 終",
			journal: text(head, run4, `未|営業\2024\請求`, `始|営業\2024\見積\A社.xlsx|1`, "書", "終"),
			keys:    keys(`営業\2024\見積\A社.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\2024\請求`, `営業\2024\見積`}},
		},
		{
			name:    "unpublished/first-seen order, case-insensitive, first spelling",
			journal: text(head, run4, `始|営業\b\1.xlsx|1`, `未|営業\A`, `始|営業\B\2.xlsx|1`, `始|営業\a\3.xlsx|1`, `出|営業\c`, `始|営業\C\4.xlsx|1`),
			keys:    appended(`営業\b\1.xlsx`, `営業\B\2.xlsx`, `営業\a\3.xlsx`, `営業\C\4.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業\b`, `営業\A`, `営業\C`}},
		},
		{
			name:    "unpublished/出 is case-insensitive",
			journal: text(head, run4, `始|営業\abc\1.xlsx|1`, `出|営業\ABC`),
			keys:    appended(`営業\abc\1.xlsx`),
			want:    journal.Recovery{Readable: true},
		},
		// ジャーナルが読めないとき（無い・版が違う）は、今ある書き出し前のフォルダを書き出す（呼び出し側）。
		{
			name:    "unreadable/版 differs",
			journal: text("版|1", run4, `始|営業\A.xlsx|1`),
			keys:    rewritten,
			want:    journal.Recovery{},
		},
		{
			name:    "unreadable/no 版 line",
			journal: text(run4, `始|営業\A.xlsx|1`),
			keys:    rewritten,
			want:    journal.Recovery{},
		},
		{
			name:    "unreadable/版 not on the first line",
			journal: text(run4, head, `始|営業\A.xlsx|1`),
			keys:    rewritten,
			want:    journal.Recovery{},
		},
		{
			name:    "unreadable/empty file",
			journal: "",
			keys:    rewritten,
			want:    journal.Recovery{},
		},
		{
			name:    "unreadable/版 line cut before its newline",
			journal: "\uFEFF版\t2",
			keys:    rewritten,
			want:    journal.Recovery{},
		},
		// やり直す仕事: 「始」を書いたあと、この回（回 の行数より後ろ）の取り込み一覧の行が無い仕事。
		{
			name:    "redo/始 without a row after the 回 count",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `始|営業\B.xlsx|1`),
			keys:    appended(`営業\A.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\B.xlsx`, Count: 1}}},
		},
		{
			name:    "redo/rows before the 回 count are the rewrite's, not results",
			journal: text(head, run4, `始|営業\A.xlsx|1`),
			keys:    appended(),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name:    "redo/rows are matched case-insensitively",
			journal: text(head, run4, `始|営業\Big.XLSX|1`),
			keys:    appended(`営業\big.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業`}},
		},
		{
			name:    "redo/malformed ingest-list lines match nothing",
			journal: text(head, run4, `始|営業\A.xlsx|2`),
			keys:    appended("", ""),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 2}}},
		},
		// 後回し・中止の仕事も、渡した仕事は行を追記するため、止まったと見ない。
		{
			name:    "redo/postponed or stopped jobs have a row and are not redone",
			journal: text(head, run4, `始|営業\P.pptx|1`, `始|営業\S.xlsx|1`),
			keys:    appended(`営業\P.pptx`, `営業\S.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業`}},
		},
		// 「持」だけで「始」が無い仕事は、回数のまま持ち越す。
		{
			name:    "redo/持 without 始 is carried with its count",
			journal: text(head, run4, `持|営業\C.xlsx|1`, `持|営業\B.xlsx|2`, `始|営業\A.xlsx|1`),
			keys:    appended(`営業\A.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\C.xlsx`, Count: 1}, {RelPath: `営業\B.xlsx`, Count: 2}}},
		},
		{
			name:    "redo/持 followed by 始 is decided by the 始",
			journal: text(head, run4, `持|営業\C.xlsx|1`, `持|営業\D.xlsx|1`, `始|営業\c.xlsx|2`, `始|営業\D.xlsx|2`),
			keys:    appended(`営業\D.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\c.xlsx`, Count: 2}}},
		},
		// 「始」が同じ仕事に何度もあれば、最後の行を使う。
		{
			name:    "redo/the last 始 of a job counts",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `始|営業\B.xlsx|1`, `始|営業\a.xlsx|3`),
			keys:    appended(`営業\B.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\a.xlsx`, Count: 3}}},
		},
		// 終 が無く、書 があるときは、行を見ず、「始」の仕事をすべてやり直す。
		{
			name:    "redo/書 without 終 redoes every 始 without looking at rows",
			journal: text(head, run4, `持|営業\C.xlsx|1`, `始|営業\A.xlsx|1`, `始|営業\B.xlsx|2`, `出|営業`, "書"),
			keys:    appended(`営業\A.xlsx`, `営業\B.xlsx`),
			want: journal.Recovery{Readable: true,
				Redo: []journal.Job{{RelPath: `営業\C.xlsx`, Count: 1}, {RelPath: `営業\A.xlsx`, Count: 1}, {RelPath: `営業\B.xlsx`, Count: 2}}},
		},
		// 回 の行数が取り込み一覧より多いとき（外から書き換えられた）は、行を見ず、「始」の仕事をすべてやり直す。
		{
			name:    "redo/回 count larger than the list redoes every 始",
			journal: text(head, "回|2026/09/19 10:00:00|7", `始|営業\A.xlsx|1`, `始|営業\B.xlsx|1`),
			keys:    appended(`営業\A.xlsx`, `営業\B.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}, {RelPath: `営業\B.xlsx`, Count: 1}}},
		},
		{
			name:    "redo/回 count equal to the list looks at no rows and redoes",
			journal: text(head, run4, `始|営業\A.xlsx|1`),
			keys:    keys(rewritten...),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		// 終 があれば、やり直す仕事は無い。
		{
			name:    "redo/終 leaves nothing to redo",
			journal: text(head, run4, `持|営業\C.xlsx|1`, `始|営業\A.xlsx|1`, `出|営業`, "書", "終"),
			keys:    keys(rewritten...),
			want:    journal.Recovery{Readable: true},
		},
		{
			name:    "redo/終 without 書 leaves nothing to redo",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `出|営業`, "終"),
			keys:    keys(rewritten...),
			want:    journal.Recovery{Readable: true},
		},
		// 限りがあること: 取り込み一覧の行数が 回 の行数より少なければ、「始」の仕事をすべてやり直す。
		{
			name:    "limit/list shorter than the 回 count after an outside edit",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `出|営業`),
			keys:    keys(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		// 知らない種類の行と余分な列は読み飛ばす。最後の行が改行で終わっていなければ、その行を捨てる。
		{
			name:    "format/unknown kinds and extra columns are skipped",
			journal: text(head, run4, `謎|営業\X\A.xlsx|1`, `始|営業\A.xlsx|1|余分|列`, `出|営業|余分`),
			keys:    appended(),
			want:    journal.Recovery{Readable: true, Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name:    "format/a torn last 出 leaves its folder unpublished",
			journal: text(head, run4, `始|営業\A.xlsx|1`) + "出\t営業",
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業`}},
		},
		{
			name:    "format/a torn last 始 is not a job",
			journal: text(head, run4, `始|営業\A.xlsx|1`) + "始\t営業\\B.xlsx\t1",
			keys:    appended(),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name: "format/missing columns, bad counts and bad paths are skipped",
			journal: text(head, run4, `始|営業\A.xlsx`, `始|営業\B.xlsx|x`, `始|営業\C.xlsx|-1`, `始|営業\D.xlsx|0`,
				`始|営業\E.xlsx| 1`, `始|..\E.xlsx|1`, `始|営業\..\E.xlsx|1`, `始|F.xlsx|1`, `始|営業\\G.xlsx|1`,
				`出`, `未|`, `出|..`, `始|営業\H.xlsx|1234567890`, `始|営業\OK.xlsx|1`),
			keys: appended(),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\OK.xlsx`, Count: 1}}},
		},
		{
			name:    "format/LF line ends and no BOM are read",
			journal: "版\t2\n回\t2026/09/19 10:00:00\t4\n始\t営業\\A.xlsx\t1\n",
			keys:    appended(),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name:    "format/a malformed 回 count is no 回",
			journal: text(head, "回|2026/09/19 10:00:00|四", `始|営業\A.xlsx|1`),
			keys:    appended(`営業\A.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		// Decisions where the seed is silent.
		{
			name:    "decision/no 回 redoes every 始 and carries 持",
			journal: text(head, `持|営業\C.xlsx|1`, `始|営業\A.xlsx|1`),
			keys:    appended(`営業\A.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\C.xlsx`, Count: 1}, {RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name: "decision/several 回: jobs after the last, folders from the whole file",
			journal: text(head, run4, `始|営業\X\Old.xlsx|1`, `始|営業\Y\Gone.xlsx|1`, `出|営業\Y`,
				"回|2026/09/20 09:00:00|5", `始|営業\A.xlsx|1`),
			keys: appended(`営業\X\Old.xlsx`),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業\X`, `営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		{
			name:    "decision/終 before a later 書 counts as a cut rewrite",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `出|営業`, "書", "終", "書"),
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
		// 試 (issue 36): publishes begun and never ended.
		{
			name:    "publishing/a 試 without 出 counts",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `試|営業|1`),
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Unpublished: []string{`営業`}, Publishing: map[string]int{`営業`: 1}},
		},
		{
			name:    "publishing/a later 出 clears it, the last 試 gives the count",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `試|営業|1`, `試|営業\X|1`, `出|営業`, `試|営業\X|2`, `試|経理|1`, `出|経理`),
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Publishing: map[string]int{`営業\X`: 2}},
		},
		{
			name:    "publishing/folders compared as names, after 終 too",
			journal: text(head, run4, `始|営業\A.xlsx|1`, `出|営業`, "書", "終", `試|ABC|2`, `試|abc|3`),
			keys:    appended(`営業\A.xlsx`),
			want:    journal.Recovery{Readable: true, Publishing: map[string]int{`ABC`: 3}},
		},
		{
			name:    "publishing/a publish that came back does not count",
			journal: text(head, run4, `試|営業|1`, `試|営業|0`, `試|経理|2`, `試|経理|1`, `試|総務|1`, `試|総務|0`, `試|総務|1`),
			keys:    appended(),
			want:    journal.Recovery{Readable: true, Publishing: map[string]int{`経理`: 1, `総務`: 1}},
		},
		{
			name:    "publishing/bad 試 lines are skipped",
			journal: text(head, run4, `試|営業`, `試|営業|-1`, `試|..|1`, `試|営業|x`),
			keys:    appended(),
			want:    journal.Recovery{Readable: true},
		},
		{
			name:    "decision/a 版 after the first line is skipped",
			journal: text(head, run4, "版|3", `始|営業\A.xlsx|1`),
			keys:    appended(),
			want: journal.Recovery{Readable: true, Unpublished: []string{`営業`},
				Redo: []journal.Job{{RelPath: `営業\A.xlsx`, Count: 1}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustRead(t, tt.journal).Recover(tt.keys)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Recover(%q, %q) =\n  %+v\nwant\n  %+v", tt.journal, tt.keys, got, tt.want)
			}
		})
	}
}

func TestRecoverMissing(t *testing.T) {
	l, err := journal.ReadFile(t.TempDir() + "/ingest.tsv")
	if err != nil {
		t.Fatalf("ReadFile(missing) error: %v", err)
	}
	if !l.Missing || l.Readable() {
		t.Errorf("ReadFile(missing) = %+v, want Missing and not Readable", l)
	}
	if got := l.Recover(keys(rewritten...)); !reflect.DeepEqual(got, journal.Recovery{}) {
		t.Errorf("Recover on a missing journal = %+v, want zero", got)
	}
}
