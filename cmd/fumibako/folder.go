package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "folder", args: "サブコマンド [引数]", summary: "インデックス（取り込む元のフォルダとその名前）を登録・一覧・変更する", order: 10,
		about: "登録した元のフォルダごとにインデックスが 1 つでき、インデックス名で呼び分けます（既定の名前はフォルダの名前）。"})
	register(&command{name: "folder add", args: "フォルダ [--name インデックス名] [--ocr-images]", summary: "元のフォルダを登録してインデックスを作る", order: 1,
		about:    "フォルダを登録します。次の fumibako index で取り込みます。まだつながっていないネットワークドライブのフォルダも登録できます。",
		examples: []string{`fumibako folder add ~/share/営業`, `fumibako folder add "\\server\共有\経理" --name 経理2024`},
		minArgs:  1, maxArgs: 1, setup: setupFolderAdd})
	register(&command{name: "folder list", summary: "登録されているインデックスを一覧にする", order: 2,
		about:    "インデックス名・取り込み（対象／対象外）・フォルダを表示します。--json では 1 行に 1 つの JSON で出力します（README「--json」）。",
		examples: []string{"fumibako folder list", "fumibako folder list --json"},
		setup:    setupFolderList})
	register(&command{name: "folder restore", args: "[設定ファイル] [--list]", summary: "失われた登録を戻す（壊れていた設定ファイルや取り込み一覧から）", order: 7,
		about: `設定ファイルが壊れて移されたとき（settings.json.broken-…）や、登録が消えてインデックスだけが残っているときに、
インデックスの登録を元の名前で戻します。設定ファイルを指定しなければ、いちばん新しい settings.json.broken-… を使います。`,
		examples: []string{"fumibako folder restore --list", "fumibako folder restore"},
		maxArgs:  1, setup: setupFolderRestore})
	register(&command{name: "folder rename", args: "インデックス名 新しい名前", summary: "インデックスの名前を変える（取り込み直しはしません）", order: 3,
		examples: []string{"fumibako folder rename 営業 営業部"},
		minArgs:  2, maxArgs: 2, setup: setupFolderRename})
	register(&command{name: "folder enable", args: "インデックス名", summary: "取り込み対象にする（次のインデックス作成で取り込みます）", order: 4,
		examples: []string{"fumibako folder enable 経理2024"},
		minArgs:  1, maxArgs: 1, setup: setupFolderEnable(true)})
	register(&command{name: "folder disable", args: "インデックス名", summary: "取り込み対象から外す（インデックスは残し、検索できます）", order: 5,
		examples: []string{"fumibako folder disable 経理2024"},
		minArgs:  1, maxArgs: 1, setup: setupFolderEnable(false)})
	register(&command{name: "folder remove", args: "インデックス名 [--now]", summary: "登録を外す（インデックスは次のインデックス作成で削除します。元のファイルは残ります）", order: 6,
		about:    "--now を付けると、次のインデックス作成を待たずにインデックスをすぐ削除します（インデックス作成中は使えません）。",
		examples: []string{"fumibako folder remove 経理2024", "fumibako folder remove 経理2024 --now"},
		minArgs:  1, maxArgs: 1, setup: setupFolderRemove})
	register(&command{name: "folder ocr", args: "インデックス名 on|off", summary: "画像ファイル（.tif .png .jpg など）を OCR で取り込むかどうかを切り替える", order: 8,
		about: `on にすると、そのフォルダの画像ファイル（.tif .tiff .png .jpg .jpeg .bmp）も OCR で読んで取り込みます。
写真の多いフォルダでは時間がかかるため、既定は off です。off に戻すと、次のインデックス作成で画像ファイルをインデックスから除きます。`,
		examples: []string{"fumibako folder ocr 営業 on", "fumibako folder ocr 営業 off"},
		minArgs:  2, maxArgs: 2, setup: setupFolderOCR})
}

func setupFolderOCR(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		var on bool
		switch args[1] {
		case "on":
			on = true
		case "off":
		default:
			return usagef("folder ocr", msgOCRSwitch, args[1])
		}
		err := settingsEdit(e, nil, func(_ *workspace.Workspace, s *workspace.Settings) error {
			return s.SetOCRImages(args[0], on)
		})
		if err != nil {
			return err
		}
		if on {
			fmt.Fprintf(e.stdout, msgOCRImagesOn+"\n", args[0])
		} else {
			fmt.Fprintf(e.stdout, msgOCRImagesOff+"\n", args[0])
		}
		return nil
	}
}

// settingsEdit opens the workspace and lets edit change its settings
// under the settings lock (workspace.UpdateSettings: read, edit, write as
// one step, so that edits made at the same time by other processes are
// kept), printing a recovery notice on stderr. prepare, if not nil, runs
// first, outside the lock: the slow reads an edit needs (the ingest list).
func settingsEdit(e *env, prepare func(ws *workspace.Workspace), edit func(ws *workspace.Workspace, s *workspace.Settings) error) error {
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	if prepare != nil {
		prepare(ws)
	}
	broken, err := ws.UpdateSettings(func(s *workspace.Settings) error { return edit(ws, s) })
	if broken != nil {
		fmt.Fprintln(e.stderr, broken.Error())
	}
	return err
}

// openSettings opens the workspace and loads its settings, printing a
// recovery notice on stderr.
func openSettings(e *env) (*workspace.Workspace, *workspace.Settings, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, nil, err
	}
	s, notice, err := loadSettings(ws)
	if err != nil {
		return nil, nil, err
	}
	if notice != "" {
		fmt.Fprintln(e.stderr, notice)
	}
	return ws, s, nil
}

func setupFolderAdd(fs *flag.FlagSet) func(*env, []string) error {
	name := fs.String("name", "", "`インデックス名`（既定: フォルダの名前）")
	images := fs.Bool("ocr-images", false, "画像ファイル（.tif .png .jpg など）も OCR で読んで取り込む")
	return func(e *env, args []string) error {
		var r workspace.Root
		var known []workspace.KnownIndex
		prepare := func(ws *workspace.Workspace) { known = indexer.UsedIndexNames(ws) }
		err := settingsEdit(e, prepare, func(ws *workspace.Workspace, s *workspace.Settings) error {
			var err error
			r, err = s.AddRoot(args[0], *name, ws.Root, known)
			if err == nil && *images {
				err = s.SetOCRImages(r.Name, true)
				r.OCRImages = true
			}
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgAddedRoot+"\n", r.Name, r.Path)
		if w := workspace.FolderWarning(r.Path); w != "" {
			fmt.Fprintf(e.stderr, msgAddedAbsent+"\n", w)
		}
		return nil
	}
}

// rootJSON is one line of `folder list --json`.
type rootJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Enabled bool   `json:"enabled"`
	// Kept marks an index kept without its registration (folder restore
	// brings it back, folder remove deletes it).
	Kept bool `json:"kept,omitempty"`
	// Received marks an index received from elsewhere (indexSources):
	// searchable, not crawled; Confirmed, that its folder was confirmed.
	Received  bool `json:"received,omitempty"`
	Confirmed bool `json:"confirmed,omitempty"`
	// OCRImages: image files are read by OCR (folder ocr, issue 29).
	OCRImages bool `json:"ocrImages,omitempty"`
	// HiddenSheets: hidden sheets are indexed (folder set, issue 31).
	HiddenSheets bool `json:"hiddenSheets,omitempty"`
}

func setupFolderList(fs *flag.FlagSet) func(*env, []string) error {
	asJSON := fs.Bool("json", false, "1 行に 1 つの JSON で出力する")
	return func(e *env, args []string) error {
		ws, s, err := openSettings(e)
		if err != nil {
			return err
		}
		orphans := orphanIndexes(ws, s)
		if *asJSON {
			out := newJSONLines(e.stdout)
			for _, r := range s.Roots {
				out.write(rootJSON{Name: r.Name, Path: r.Path, Enabled: r.IsEnabled(), OCRImages: r.OCRImages, HiddenSheets: r.HiddenSheets})
			}
			for _, o := range orphans {
				src, received := s.Source(o.Name)
				out.write(rootJSON{Name: o.Name, Path: o.Path, Kept: !received, Received: received, Confirmed: src.Confirmed})
			}
			return out.err
		}
		t := table{head: []string{"インデックス名", "取り込み", "フォルダ"}}
		for _, r := range s.Roots {
			w := enabledWord(r.IsEnabled())
			if r.OCRImages {
				w += msgOCRImagesMark
			}
			if r.HiddenSheets {
				w += msgHiddenSheetsMark
			}
			t.add(r.Name, w, r.Path)
		}
		for _, o := range orphans {
			t.add(o.Name, orphanState(s, o), o.Path)
		}
		return t.write(e.stdout)
	}
}

// orphanState is the 取り込み column of an index that no root names.
func orphanState(s *workspace.Settings, o workspace.KnownIndex) string {
	src, received := s.Source(o.Name)
	switch {
	case received && src.Confirmed:
		return stateReceived
	case received:
		return stateReceivedNew
	}
	return stateOrphan
}

func enabledWord(on bool) string {
	if on {
		return msgEnabled
	}
	return msgDisabled
}

func setupFolderRename(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		ws, err := e.workspace()
		if err != nil {
			return err
		}
		broken, err := indexer.RenameIndex(ws, args[0], args[1])
		if broken != nil {
			fmt.Fprintln(e.stderr, broken.Error())
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgRenamedRoot+"\n", args[0], args[1])
		return nil
	}
}

func setupFolderEnable(on bool) func(fs *flag.FlagSet) func(*env, []string) error {
	return func(fs *flag.FlagSet) func(*env, []string) error {
		return func(e *env, args []string) error {
			err := settingsEdit(e, nil, func(_ *workspace.Workspace, s *workspace.Settings) error {
				return s.SetEnabled(args[0], on)
			})
			if err != nil {
				return err
			}
			if on {
				fmt.Fprintf(e.stdout, msgEnabledRoot+"\n", args[0])
			} else {
				fmt.Fprintf(e.stdout, msgDisabledRoot+"\n", args[0])
			}
			return nil
		}
	}
}

func setupFolderRemove(fs *flag.FlagSet) func(*env, []string) error {
	now := fs.Bool("now", false, "次のインデックス作成を待たずに、インデックスをすぐ削除する")
	return func(e *env, args []string) error {
		var r workspace.Root
		err := settingsEdit(e, nil, func(ws *workspace.Workspace, s *workspace.Settings) error {
			var err error
			r, err = s.RemoveRoot(args[0])
			if err != nil {
				o, ok := findOrphan(ws, s, args[0])
				if !ok {
					return err
				}
				// An index kept without its root, or received through
				// import: removing it is explicit.
				r = workspace.Root{Name: o.Name, Path: o.Path}
				s.MarkRemoved(r)
				s.IndexSources = slices.DeleteFunc(s.IndexSources, func(x workspace.IndexSource) bool {
					return workspace.FoldKey(x.Name) == workspace.FoldKey(o.Name)
				})
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgRemovedRoot+"\n", r.Name, r.Path)
		if *now {
			return freeNow(e)
		}
		return nil
	}
}

// freeNow deletes the indexes of removed roots at once: an indexing run
// that crawls nothing (indexer.Options.FreeOnly), so that the deletion is
// the same as the next run's, under the workspace lock.
func freeNow(e *env) error {
	ws, s, err := openSettings(e)
	if err != nil {
		return err
	}
	if !indexer.HasRemovedIndexes(ws, s) {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	opt := indexer.NewOptions(ws, s, indexer.Launch{WorkerExe: exe})
	opt.FreeOnly = true
	sum, err := indexer.Run(opt)
	var lockErr *workspace.LockError
	if errors.As(err, &lockErr) {
		// Removed all the same: the running indexing frees it next time.
		fmt.Fprintln(e.stderr, msgFreeLater)
		return nil
	}
	if err != nil {
		return err
	}
	for _, n := range sum.Freed {
		fmt.Fprintf(e.stdout, msgFreedIndex+"\n", n)
	}
	return nil
}

func setupFolderRestore(fs *flag.FlagSet) func(*env, []string) error {
	onlyList := fs.Bool("list", false, "戻せる登録を表示するだけで、何も変えない")
	return func(e *env, args []string) error {
		from := ""
		if len(args) == 1 {
			from = args[0]
		}
		if *onlyList {
			ws, s, err := openSettings(e)
			if err != nil {
				return err
			}
			_, err = restoreFolders(e.stdout, ws, s, from, true)
			return err
		}
		// Registering them is an edit: under the settings lock, the
		// messages printed once it is saved.
		var out bytes.Buffer
		err := settingsEdit(e, nil, func(ws *workspace.Workspace, s *workspace.Settings) error {
			restored, err := restoreFolders(&out, ws, s, from, false)
			if err == nil && restored == 0 {
				err = errNothingRestored // nothing to save
			}
			return err
		})
		e.stdout.Write(out.Bytes())
		if errors.Is(err, errNothingRestored) {
			return nil
		}
		return err
	}
}

// Messages of folder list and folder restore (issue 15).
const (
	stateReceivedShort = "受け取り（取り込みません）"
	stateOrphan        = "設定になし（インデックスは残っています。folder restore で戻せます）"
	msgRestored        = "インデックスを戻しました: 「%s」 %s（%s）\n"
	msgRestoreOffer    = "戻せるインデックス: 「%s」 %s（%s）\n"
	msgRestoreRefused  = "戻せませんでした: 「%s」 %s（%s）\n"
	msgRestoreNone     = "戻せるインデックスはありません。"
	msgRestoreRemoved  = "削除の予約があるため戻しません（戻すには fumibako folder add）。"
	msgRestoreUnread   = "%s を読めません。"
	fromBroken         = "壊れていた設定ファイル %s から"
	fromList           = "取り込み一覧から"
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
		if src, ok := s.Source(k.Name); ok {
			k.Path = src.Path // where its files are opened from
		}
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

// errNothingRestored ends a folder restore that changed nothing, so that
// the settings are not written.
var errNothingRestored = errors.New("cmd: nothing restored")

// restoreFolders offers back the roots of a moved-aside settings file
// (from, else the newest settings.json.broken-*) and of the ingest list's
// folder lines whose index is kept without a root, and registers them again
// in s under their own names (with onlyList it only shows them), writing
// what it does to w. It returns how many it offered or registered.
func restoreFolders(w io.Writer, ws *workspace.Workspace, s *workspace.Settings, from string, onlyList bool) (int, error) {
	if from == "" {
		from = workspace.NewestMovedAside(ws.SettingsPath())
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
			return 0, &fatalError{msg: fmt.Sprintf(msgRestoreUnread, from), cause: err}
		}
		for _, r := range workspace.SalvageSettings(data).Roots {
			seen[workspace.FoldKey(r.Name)] = true
			cands = append(cands, cand{r, fmt.Sprintf(fromBroken, filepath.Base(from))})
		}
	}
	for _, o := range orphanIndexes(ws, s) {
		if _, received := s.Source(o.Name); received {
			continue // crawled only when the user adds its folder (issue 30)
		}
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
			fmt.Fprintf(w, msgRestoreRefused, c.root.Name, c.root.Path, msgRestoreRemoved)
			continue
		}
		if onlyList {
			fmt.Fprintf(w, msgRestoreOffer, c.root.Name, c.root.Path, c.source)
			restored++
			continue
		}
		if err := s.RestoreRoot(c.root); err != nil {
			fmt.Fprintf(w, msgRestoreRefused, c.root.Name, c.root.Path, err.Error())
			continue
		}
		fmt.Fprintf(w, msgRestored, c.root.Name, c.root.Path, c.source)
		restored++
	}
	if restored == 0 {
		fmt.Fprintln(w, msgRestoreNone)
	}
	return restored, nil
}
