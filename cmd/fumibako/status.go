package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	commands["status"] = &command{summary: "per index: files, done, failed, pending, last run", run: runStatus}
	commands["failures"] = &command{summary: "files that failed, with the reason", run: runFailures}
}

// loadList opens the workspace and reads its settings and ingest list.
func loadList(e *env) (*workspace.Workspace, *workspace.Settings, *ingestlist.List, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	s, notice, err := loadSettings(ws)
	if err != nil {
		return nil, nil, nil, err
	}
	if notice != "" {
		fmt.Fprintln(e.stderr, notice)
	}
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, s, l, nil
}

type indexStats struct {
	files, done, failed, pending int
	last                         string
}

func runStatus(e *env, args []string) int {
	fs := newFlags(e, "status")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitUsage
	}
	ws, s, l, err := loadList(e)
	if err != nil {
		return e.fail(err)
	}
	stats := map[string]*indexStats{}
	for _, r := range l.Rows {
		k := workspace.FoldKey(r.IndexName())
		st := stats[k]
		if st == nil {
			st = &indexStats{}
			stats[k] = st
		}
		st.files++
		switch {
		case r.Failed():
			st.failed++
		case r.State == ingestlist.Done:
			st.done++
		default:
			st.pending++
		}
		if r.IngestedAt > st.last {
			st.last = r.IngestedAt
		}
	}
	cloud := indexer.ReadRunStats(ws)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "インデックス名\tファイル\t済\t失敗\t未取り込み\tクラウドのみ\t最終取り込み\t状態\tフォルダ")
	for _, root := range s.Roots {
		st := stats[workspace.FoldKey(root.Name)]
		if st == nil {
			st = &indexStats{last: "-"}
		}
		state := "チェックあり"
		if !root.IsEnabled() {
			state = "チェックなし"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", root.Name, st.files, st.done, st.failed, st.pending,
			cloud[root.Name].CloudOnly, st.last, state, root.Path)
	}
	tw.Flush()
	if ws.IsLocked() {
		fmt.Fprintln(e.stdout, "インデックス作成が実行中です。")
	}
	return exitOK
}

func runFailures(e *env, args []string) int {
	fs := newFlags(e, "failures")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitUsage
	}
	_, _, l, err := loadList(e)
	if err != nil {
		return e.fail(err)
	}
	n := 0
	for _, r := range l.Rows {
		if !r.Failed() {
			continue
		}
		msg := r.Error
		if msg == "" {
			msg = "（原因は記録されていません）"
		}
		fmt.Fprintf(e.stdout, "%s\n    → %s\n", r.RelPath, msg)
		n++
	}
	fmt.Fprintf(e.stdout, "取り込みに失敗したファイル %d 件\n", n)
	return exitOK
}
