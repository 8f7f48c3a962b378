package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// msgEngine stands for the reader's run message (pdf.MsgEngine).
const msgEngine = "PDF を読む部品を準備できませんでした。（テスト）"

// TestIssue36EngineUnavailable: files whose reader could not prepare its
// engine (extract.Unavailable) stay 未取り込み with no エラー text, are not
// counted as failed, the run's message is logged once however many files
// meet it, the summary counts them, and the next run takes them again
// (without --retry-failed) and ingests them.
func TestIssue36EngineUnavailable(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "src")
	for _, name := range []string{"a.txt", "b.pdf", "c.pdf"} {
		p := filepath.Join(root, name)
		os.MkdirAll(root, 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		engine bool // the PDF engine starts
		rows   []string
		failed int
		kept   int
		once   int // times the run's message is in the log
	}{
		{false, []string{`src\a.txt 済 `, `src\b.pdf 未取り込み `, `src\c.pdf 未取り込み `}, 0, 2, 1},
		{true, []string{`src\a.txt 済 `, `src\b.pdf 済 `, `src\c.pdf 済 `}, 0, 0, 0},
	}
	for i, tt := range runs {
		var seen []string
		script := func(name string) (worker.Result, bool) {
			if strings.HasSuffix(name, ".pdf") && !tt.engine {
				return worker.Result{Outcome: worker.Finished, Response: worker.Response{Unavailable: true, Msg: msgEngine, Detail: "wasm: cannot instantiate"}}, false
			}
			return answer(name)
		}
		sum, err := Run(Options{
			Workspace: ws,
			Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
			Body:      &nopBody{},
			Workers:   1,
			newSlot:   func(worker.Config, string) slot { return scriptedSlot{script: script, seen: &seen} },
		})
		if err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		l, err := ingestlist.ReadFile(ws.IngestList())
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, r := range l.Rows {
			rows = append(rows, fmt.Sprintf("%s %s %s", r.RelPath, r.State, r.Error))
		}
		check(t, fmt.Sprintf("run %d rows", i+1), rows, tt.rows)
		if sum.Failed+sum.Postponed != tt.failed || sum.Unavailable != tt.kept {
			t.Errorf("run %d: failed %d, postponed %d, kept %d; want failed %d, kept %d", i+1, sum.Failed, sum.Postponed, sum.Unavailable, tt.failed, tt.kept)
		}
		log, _ := os.ReadFile(ws.Log())
		if n := strings.Count(string(log), msgEngine); n != tt.once {
			t.Errorf("run %d: the run's message %d times in the log, want %d:\n%s", i+1, n, tt.once, log)
		}
		if want := sprintf(msgUnavailable, tt.kept); tt.kept > 0 && !strings.Contains(string(log), want) {
			t.Errorf("run %d: no summary line %q in the log:\n%s", i+1, want, log)
		}
		if tt.kept > 0 && strings.Contains(string(log), "取り込みに失敗しました") {
			t.Errorf("run %d: a file's failure in the log:\n%s", i+1, log)
		}
	}
}
