package indexer

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

const listHead = "相対パス\t更新日時\tサイズ\t状態\tTSV数\t取り込み日時\tエラー\t抽出版\r\n"

// listRun runs the indexer over root (index "src") with a scripted worker
// and returns the summary, the error, the names handed to the worker, the
// log and the warning events.
func listRun(t *testing.T, ws *workspace.Workspace, root string, reset bool) (*Summary, error, []string, string, []string) {
	t.Helper()
	var seen, warns []string
	sum, err := Run(Options{
		Workspace: ws,
		Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
		Body:      &nopBody{},
		Workers:   1,
		ResetList: reset,
		Observe: func(e Event) {
			if e.Level == Warn && e.Line != "" {
				warns = append(warns, e.Line)
			}
		},
		newSlot: func(worker.Config, string) slot { return scriptedSlot{script: answer, seen: &seen} },
	})
	log, _ := os.ReadFile(ws.Log())
	return sum, err, seen, string(log), warns
}

// TestIssue36LostNamesList: an ingest list Excel saved again as cp932,
// whose names lost characters outside cp932 (`?` for 😀, 𠮷, Hangul, é),
// keeps each row's state where one file has that name pattern, size and
// time (a 失敗 file is not taken again); where none or several do, the run
// stops naming the lines and leaves the list as it is, and --reset-list
// moves it aside and starts over. Before, the rows were rejected, counted,
// and the failed file was ingested again.
func TestIssue36LostNamesList(t *testing.T) {
	mtime := time.Date(2025, 1, 10, 12, 34, 56, 0, time.Local)
	const failed = "\t2025/1/10 12:34\t200\t失敗\t\t2026/9/19 10:00\t開けません\t\r\n"
	tests := []struct {
		name  string
		files map[string]int // file → size, all with mtime
		list  string         // data lines (UTF-8 with `?`), encoded as cp932
		reset bool
		stop  string   // the fatal message names these lines
		seen  []string // handed to the worker
		rows  []string // "relpath state error" after the run
	}{
		{
			name:  "each found",
			files: map[string]int{"😀報告.xlsx": 200, "𠮷野家/한국.txt": 300, "café.txt": 200, "普通.txt": 5},
			list: "src\\?報告.xlsx" + failed +
				"src\\??野家\\??.txt\t2025/1/10 12:34\t300\t失敗\t\t2026/9/19 10:00\t壊れています\t\r\n" +
				"src\\caf?.txt" + failed,
			seen: []string{"普通.txt"},
			rows: []string{`src\café.txt 失敗 開けません`, `src\普通.txt 済 `, `src\😀報告.xlsx 失敗 開けません`, `src\𠮷野家\한국.txt 失敗 壊れています`},
		},
		{
			name:  "two files fit",
			files: map[string]int{"😀.xlsx": 200, "😁.xlsx": 200, "a.txt": 5},
			list:  "src\\a.txt\t2025/1/10 12:34\t5\t済\t1\t2026/9/19 10:00\t\t1\r\n" + "src\\?.xlsx" + failed,
			stop:  "の 4 行目は、ファイル名の一部の文字が「?」になっていて",
		},
		{
			name:  "none fits (size)",
			files: map[string]int{"😀.xlsx": 201},
			list:  "src\\?.xlsx" + failed + "src\\??.xlsx" + failed,
			stop:  "の 3、4 行目は",
		},
		{
			name:  "two rows, one file",
			files: map[string]int{"😀.xlsx": 200},
			list:  "src\\?.xlsx" + failed + "src\\??.xlsx" + failed,
			stop:  "の 3、4 行目は",
		},
		{
			name:  "reset-list",
			files: map[string]int{"😀.xlsx": 200, "😁.xlsx": 200},
			list:  "src\\?.xlsx" + failed,
			reset: true,
			seen:  []string{"😀.xlsx", "😁.xlsx"},
			rows:  []string{`src\😀.xlsx 済 `, `src\😁.xlsx 済 `},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "src")
			for name, size := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(p, mtime, mtime)
			}
			ws, err := workspace.Open(filepath.Join(base, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			list, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte("クロール対象フォルダ\t" + root + "\tsrc\r\n" + listHead + tt.list))
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(ws.IngestList()), 0o755)
			if err := os.WriteFile(ws.IngestList(), list, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err, seen, log, _ := listRun(t, ws, root, tt.reset)
			if tt.stop != "" {
				var fe *FatalError
				if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.stop) || !strings.Contains(fe.Msg, "--reset-list") {
					t.Fatalf("Run: %v, want the run stopped with %q", err, tt.stop)
				}
				if after, _ := os.ReadFile(ws.IngestList()); string(after) != string(list) {
					t.Errorf("the list was changed by a stopped run")
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, log)
			}
			slices.Sort(seen)
			check(t, "handed to the worker", seen, tt.seen)
			l, err := ingestlist.ReadFile(ws.IngestList())
			if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, r := range l.Rows {
				rows = append(rows, r.RelPath+" "+string(r.State)+" "+r.Error)
			}
			slices.Sort(rows)
			check(t, "rows", rows, tt.rows)
			if tt.reset {
				if aside, _ := filepath.Glob(ws.IngestList() + ".broken-*"); len(aside) != 1 {
					t.Errorf("lists moved aside: %q, want one", aside)
				}
			} else if !strings.Contains(log, "取り込み一覧の 3 行目（src\\?報告.xlsx）は、名前の一部の文字が「?」になっていたため、更新日時とサイズが同じ src\\😀報告.xlsx の行として読みました。") {
				t.Errorf("no line for the found row in the log:\n%s", log)
			}
		})
	}
}

// TestIssue36SkippedLinesLogged: every line of a list in the seed's form
// that the reader passes over (a NUL in a name, a garbage line, a torn
// line) is in indexing_log.txt and a warning event with its line number;
// before, only the rejected lines were counted, and Ignored never logged.
func TestIssue36SkippedLinesLogged(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "src")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644)
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	list := "\uFEFFクロール対象フォルダ\t" + root + "\tsrc\r\n" + listHead +
		"src\\a.txt\t2025/01/10 12:34:56\t1\t済\t1\t2026/09/19 10:00:35\t\t1\r\n" +
		"src\\b\x00.txt\t2025/01/10 12:34:56\t1\t失敗\t\t2026/09/19 10:00:35\t開けません\t\r\n" +
		strings.Repeat("\x07\xff", 3<<20) + "\r\n" +
		"src\\c.txt\t2025/01\r\n"
	os.MkdirAll(filepath.Dir(ws.IngestList()), 0o755)
	if err := os.WriteFile(ws.IngestList(), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err, _, log, warns := listRun(t, ws, root, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"取り込み一覧の 1 行は、インデックス名・パスが正しくないため読み飛ばしました。",
		"取り込み一覧の 2 行は、形式が正しくないため読み飛ばしました。",
		"  取り込み一覧の 4 行目を読み飛ばしました: インデックス名・パスに制御文字（NUL など）が入っています",
		"  取り込み一覧の 5 行目を読み飛ばしました: 行が長すぎます（1 MiB を超えています）",
		"  取り込み一覧の 6 行目を読み飛ばしました: 列の数（2）が見出しの列の数（8）と合いません",
	} {
		if !strings.Contains(log, want+"\r\n") {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
		if !slices.Contains(warns, want) {
			t.Errorf("no warning event %q (got %q)", want, warns)
		}
	}
}
