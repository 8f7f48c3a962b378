package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/fumibako/fumibako/internal/indexer"
)

func init() {
	commands["folder"] = &command{summary: "manage crawl roots: add PATH [--name NAME] | list | rename OLD NEW | enable NAME | disable NAME | remove NAME", run: runFolder}
}

func runFolder(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "usage: fumibako folder add PATH [--name NAME] | list | rename OLD NEW | enable NAME | disable NAME | remove NAME")
		return exitUsage
	}
	sub := args[0]
	fs := newFlags(e, "folder "+sub)
	name := fs.String("name", "", "index name (add)")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	want := map[string]int{"add": 1, "list": 0, "rename": 2, "enable": 1, "disable": 1, "remove": 1}
	n, ok := want[sub]
	if !ok || len(pos) != n {
		fmt.Fprintf(e.stderr, "fumibako folder: bad arguments for %q\n", sub)
		return exitUsage
	}
	ws, err := e.workspace()
	if err != nil {
		return e.fail(err)
	}
	s, notice, err := loadSettings(ws)
	if err != nil {
		return e.fail(err)
	}
	if notice != "" {
		fmt.Fprintln(e.stderr, notice)
	}
	switch sub {
	case "list":
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "インデックス名\t状態\tフォルダ")
		for _, r := range s.Roots {
			state := "チェックあり"
			if !r.IsEnabled() {
				state = "チェックなし"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, state, r.Path)
		}
		tw.Flush()
		return exitOK
	case "add":
		r, err := s.AddRoot(pos[0], *name, ws.Root, indexer.UsedIndexNames(ws))
		if err != nil {
			return e.fail(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "クロール対象フォルダを追加しました: [%s] %s\n", r.Name, r.Path)
	case "rename":
		if err := indexer.RenameIndex(ws, s, pos[0], pos[1]); err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "インデックスの名前を変えました: [%s] → [%s]\n", pos[0], pos[1])
		return exitOK
	case "enable", "disable":
		if err := s.SetEnabled(pos[0], sub == "enable"); err != nil {
			return e.fail(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			return e.fail(err)
		}
		if sub == "enable" {
			fmt.Fprintf(e.stdout, "[%s] にチェックを付けました（次のインデックス作成で取り込みます）\n", pos[0])
		} else {
			fmt.Fprintf(e.stdout, "[%s] のチェックを外しました（インデックスはそのまま残し、検索できます）\n", pos[0])
		}
	case "remove":
		r, err := s.RemoveRoot(pos[0])
		if err != nil {
			return e.fail(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "クロール対象フォルダから外しました: [%s] %s（インデックスは次のインデックス作成で削除します。元のファイルはそのまま残ります）\n", r.Name, r.Path)
	}
	return exitOK
}
