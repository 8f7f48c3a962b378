package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	commands["folder"] = &command{summary: "manage crawl roots: add PATH [--name NAME] | list | rename OLD NEW | enable NAME | disable NAME | remove NAME | restore [FILE] [--list]", run: runFolder}
}

func runFolder(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "usage: fumibako folder add PATH [--name NAME] | list | rename OLD NEW | enable NAME | disable NAME | remove NAME | restore [FILE] [--list]")
		return exitUsage
	}
	sub := args[0]
	fs := newFlags(e, "folder "+sub)
	name := fs.String("name", "", "index name (add)")
	onlyList := fs.Bool("list", false, "show what would be restored, change nothing (restore)")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	want := map[string]int{"add": 1, "list": 0, "rename": 2, "enable": 1, "disable": 1, "remove": 1, "restore": 0}
	n, ok := want[sub]
	if !ok || (len(pos) != n && !(sub == "restore" && len(pos) == 1)) {
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
		for _, o := range orphanIndexes(ws, s) {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", o.Name, stateOrphan, o.Path)
		}
		tw.Flush()
		return exitOK
	case "restore":
		from := ""
		if len(pos) == 1 {
			from = pos[0]
		}
		return restoreFolders(e, ws, s, from, *onlyList)
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
			o, ok := findOrphan(ws, s, pos[0])
			if !ok {
				return e.fail(err)
			}
			// An index kept without its root: removing it is explicit.
			r = workspace.Root{Name: o.Name, Path: o.Path}
			s.MarkRemoved(r)
		}
		if err := ws.SaveSettings(s); err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "クロール対象フォルダから外しました: [%s] %s（インデックスは次のインデックス作成で削除します。元のファイルはそのまま残ります）\n", r.Name, r.Path)
	}
	return exitOK
}

// Messages of folder list and folder restore (issue 15).
const (
	stateOrphan       = "設定になし（インデックスは残っています。folder restore で戻せます）"
	msgRestored       = "クロール対象フォルダを戻しました: [%s] %s（%s）\n"
	msgRestoreOffer   = "戻せるクロール対象フォルダ: [%s] %s（%s）\n"
	msgRestoreRefused = "戻せませんでした: [%s] %s（%s）\n"
	msgRestoreNone    = "戻せるクロール対象フォルダはありません。"
	msgRestoreRemoved = "削除の予約があるため戻しません（戻すには fumibako folder add）"
	msgRestoreUnread  = "%s を読めません: %v"
	fromBroken        = "壊れていた設定ファイル %s から"
	fromList          = "取り込み一覧から"
)

// orphanIndexes lists the indexes the workspace knows (the ingest list's
// folder lines, the content folder) that no root names and the user did
// not remove: kept by the indexer since their registration was lost.
func orphanIndexes(ws *workspace.Workspace, s *workspace.Settings) []workspace.KnownIndex {
	byName := map[string]workspace.KnownIndex{}
	for _, k := range indexer.UsedIndexNames(ws) {
		key := workspace.FoldKey(k.Name)
		if _, _, ok := s.Root(k.Name); ok || s.IsRemoved(k.Name) || !workspace.TestStoredIndexName(k.Name) {
			continue
		}
		if prev, seen := byName[key]; !seen || (prev.Path == "" && k.Path != "") {
			byName[key] = k
		}
	}
	out := make([]workspace.KnownIndex, 0, len(byName))
	for _, k := range byName {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func findOrphan(ws *workspace.Workspace, s *workspace.Settings, name string) (workspace.KnownIndex, bool) {
	for _, o := range orphanIndexes(ws, s) {
		if workspace.FoldKey(o.Name) == workspace.FoldKey(name) {
			return o, true
		}
	}
	return workspace.KnownIndex{}, false
}

// newestBroken returns the newest settings.json.broken-* of the workspace.
func newestBroken(ws *workspace.Workspace) string {
	matches, _ := filepath.Glob(ws.SettingsPath() + ".broken-*")
	newest, at := "", int64(0)
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && (newest == "" || st.ModTime().UnixNano() >= at) {
			newest, at = m, st.ModTime().UnixNano()
		}
	}
	return newest
}

// restoreFolders offers back the roots of a moved-aside settings file
// (from, else the newest settings.json.broken-*) and of the ingest list's
// folder lines whose index is kept without a root, and registers them again
// under their own names (with --list it only shows them).
func restoreFolders(e *env, ws *workspace.Workspace, s *workspace.Settings, from string, onlyList bool) int {
	if from == "" {
		from = newestBroken(ws)
	}
	type cand struct {
		root   workspace.Root
		source string
	}
	var cands []cand
	seen := map[string]bool{}
	if from != "" {
		data, err := os.ReadFile(from)
		if err != nil {
			fmt.Fprintf(e.stderr, msgRestoreUnread+"\n", from, err)
			return exitFatal
		}
		for _, r := range workspace.SalvageSettings(data).Roots {
			seen[workspace.FoldKey(r.Name)] = true
			cands = append(cands, cand{r, fmt.Sprintf(fromBroken, filepath.Base(from))})
		}
	}
	for _, o := range orphanIndexes(ws, s) {
		if !seen[workspace.FoldKey(o.Name)] && o.Path != "" {
			cands = append(cands, cand{workspace.Root{Name: o.Name, Path: o.Path}, fromList})
		}
	}
	restored := 0
	for _, c := range cands {
		if existing, _, ok := s.Root(c.root.Name); ok && existing.Path == c.root.Path {
			continue // registered already
		}
		if s.IsRemoved(c.root.Name) {
			fmt.Fprintf(e.stdout, msgRestoreRefused, c.root.Name, c.root.Path, msgRestoreRemoved)
			continue
		}
		if onlyList {
			fmt.Fprintf(e.stdout, msgRestoreOffer, c.root.Name, c.root.Path, c.source)
			restored++
			continue
		}
		if err := s.RestoreRoot(c.root); err != nil {
			fmt.Fprintf(e.stdout, msgRestoreRefused, c.root.Name, c.root.Path, err.Error())
			continue
		}
		fmt.Fprintf(e.stdout, msgRestored, c.root.Name, c.root.Path, c.source)
		restored++
	}
	if restored == 0 {
		fmt.Fprintln(e.stdout, msgRestoreNone)
		return exitOK
	}
	if !onlyList {
		if err := ws.SaveSettings(s); err != nil {
			return e.fail(err)
		}
	}
	return exitOK
}
