package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "status", summary: "インデックスごとのファイル数・取り込み済み・失敗・未取り込み・最終取り込みを表示する", order: 40,
		about:    "取り込み一覧（ingest_status.tsv）から数えます。--json では 1 行に 1 インデックスの JSON で出力します（README「--json」）。",
		examples: []string{"fumibako status", "fumibako status --json"},
		setup:    setupStatus})
	register(&command{name: "failures", summary: "取り込みに失敗したファイルと原因を、新しい順に表示する", order: 50,
		about:    "もう一度取り込むには fumibako index --retry-failed を実行します。--json では 1 行に 1 ファイルの JSON で出力します（README「--json」）。",
		examples: []string{"fumibako failures", "fumibako failures --json"},
		setup:    setupFailures})
}

// loadList opens the workspace and reads its settings and ingest list.
func loadList(e *env) (*workspace.Workspace, *workspace.Settings, *ingestlist.List, error) {
	ws, s, err := openSettings(e)
	if err != nil {
		return nil, nil, nil, err
	}
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, s, l, nil
}

// statusJSON is one line of `status --json` (README "--json").
type statusJSON struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Enabled   bool   `json:"enabled"`
	Files     int    `json:"files"`
	Done      int    `json:"done"`
	Failed    int    `json:"failed"`
	Pending   int    `json:"pending"`
	CloudOnly int    `json:"cloudOnly"`
	Last      string `json:"last"` // yyyy/MM/dd HH:mm:ss, "" when never
	Running   bool   `json:"running"`
	// OCRWaiting counts the pages of this index's files that wait for an
	// OCR engine (issue 29), OCRWaitingFiles those files.
	OCRWaiting      int `json:"ocrWaiting,omitempty"`
	OCRWaitingFiles int `json:"ocrWaitingFiles,omitempty"`
}

func setupStatus(fs *flag.FlagSet) func(*env, []string) error {
	asJSON := fs.Bool("json", false, "1 行に 1 インデックスの JSON で出力する")
	return func(e *env, args []string) error {
		ws, s, l, err := loadList(e)
		if err != nil {
			return err
		}
		counts := l.CountByIndex()
		cloud := indexer.ReadRunStats(ws)
		running := ws.IsLocked()
		waiting, _ := indexer.ReadOCRWaiting(ws.OCRWaiting())
		byIndex := map[string][]indexer.OCRWait{}
		for _, w := range waiting {
			name, _ := ingestlist.SplitRelPath(w.RelPath)
			byIndex[workspace.FoldKey(name)] = append(byIndex[workspace.FoldKey(name)], w)
		}
		var rows []statusJSON
		for _, root := range s.Roots {
			r := statusJSON{Name: root.Name, Path: root.Path, Enabled: root.IsEnabled(), CloudOnly: cloud[root.Name].CloudOnly, Running: running}
			if c := counts[workspace.FoldKey(root.Name)]; c != nil {
				r.Files, r.Done, r.Failed, r.Pending, r.Last = c.Files, c.Done, c.Failed, c.Pending, c.Last
			}
			r.OCRWaiting, r.OCRWaitingFiles = indexer.OCRWaitingTotal(byIndex[workspace.FoldKey(root.Name)])
			rows = append(rows, r)
		}
		if *asJSON {
			out := newJSONLines(e.stdout)
			for _, r := range rows {
				out.write(r)
			}
			return out.err
		}
		t := table{head: []string{"インデックス名", "ファイル", "取り込み済み", "失敗", "未取り込み", "クラウドのみ", "最終取り込み", "取り込み", "フォルダ"},
			right: []bool{false, true, true, true, true, true}}
		for _, r := range rows {
			last := r.Last
			if last == "" {
				last = msgNever
			}
			t.add(r.Name, strconv.Itoa(r.Files), strconv.Itoa(r.Done), strconv.Itoa(r.Failed), strconv.Itoa(r.Pending),
				strconv.Itoa(r.CloudOnly), last, enabledWord(r.Enabled), r.Path)
		}
		if err := t.write(e.stdout); err != nil {
			return err
		}
		if st, ok := watch.ReadStatus(ws); ok {
			fmt.Fprintf(e.stdout, msgWatcherHolds+"\n", st.PID, st.Started.Format("2006/01/02 15:04"), st.Doing)
			if st.LastChange != "" {
				fmt.Fprintf(e.stdout, msgWatchLast+"\n", st.LastChangeAt.Format("2006/01/02 15:04:05"), st.LastChange)
			}
			for _, r := range st.Rescan {
				fmt.Fprintf(e.stdout, msgWatchRescan+"\n", r.Name, r.Path, r.Reason)
			}
		} else if running {
			fmt.Fprintln(e.stdout, msgRunning)
		}
		if pages, files := indexer.OCRWaitingTotal(waiting); files > 0 {
			fmt.Fprintf(e.stdout, indexer.MsgOCRWaiting+"\n", pages, files)
		}
		fmt.Fprintf(e.stdout, msgListAt+"\n", ws.IngestList())
		return nil
	}
}

// failureJSON is one line of `failures --json` (README "--json").
type failureJSON struct {
	Path  string `json:"path"`  // <index name>\<path under the folder>
	Error string `json:"error"` // the reason (エラー), "" when none was recorded
	At    string `json:"at"`    // 取り込み日時, yyyy/MM/dd HH:mm:ss
	State string `json:"state"` // 失敗, or 未取り込み for a postponed file
}

func setupFailures(fs *flag.FlagSet) func(*env, []string) error {
	asJSON := fs.Bool("json", false, "1 行に 1 ファイルの JSON で出力する")
	return func(e *env, args []string) error {
		ws, _, l, err := loadList(e)
		if err != nil {
			return err
		}
		failures := l.Failures()
		if *asJSON {
			out := newJSONLines(e.stdout)
			for _, r := range failures {
				out.write(failureJSON{Path: r.RelPath, Error: r.Error, At: r.IngestedAt, State: string(r.State)})
			}
			return out.err
		}
		if len(failures) == 0 {
			fmt.Fprintln(e.stdout, msgFailuresNone)
			return nil
		}
		t := table{head: []string{"取り込み日時", "ファイル", "原因"}}
		for _, r := range failures {
			msg := r.Error
			if msg == "" {
				msg = msgNoFailureCause
			}
			t.add(r.IngestedAt, r.RelPath, msg)
		}
		if err := t.write(e.stdout); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgFailuresCount+"\n", len(failures))
		fmt.Fprintln(e.stdout, msgRetryHint)
		fmt.Fprintf(e.stdout, msgListAt+"\n", ws.IngestList())
		return nil
	}
}
