package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
	"github.com/fumibako/fumibako/internal/search/order"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "search", args: "ワード... [オプション]", summary: "インデックスを検索する（ファイル・場所・該当行を表示）", order: 30, words: true,
		minArgs: 0, maxArgs: -1,
		about: `すべてのワードを含む行（Excel の 1 行、Word・PowerPoint の 1 段落）を探します。
既定では表記の小さな違いを区別しません: 大文字・小文字、全角・半角、日本語の間の
空白（見 積 書 = 見積書、形式 N01 = 形式N01）、カタカナ語の終わりの長音（サーバ =
サーバー）、旧字・異体字（髙橋 = 高橋、齋藤 = 斎藤）、漢字の間の ヶ・ケ・が（霞が関 =
霞ヶ関）。--case でこれらをすべて区別します。--regex の正規表現は、この違いをならした
本文に当てはめます（--case のときは元の本文に当てはめます）。
-ワード と書くと、そのワードを含む行を除きます（-下書き、-draft）。オプションの名前に似た
英字の -ワード（-regx など）は打ち間違いとしてエラーにします。そのワードを除くときは
--not ワード と書いてください。-- のあとのワードは、- で始まっていてもそのまま探します。
結果はインデックスごとに、フォルダ・ファイル名の自然な順（第1回・第2回・第10回）に並びます。
--sort で更新日時順・件数順にもできます。--export の形式はファイルの拡張子（.txt・.csv・.json）か
--format で決まります。.txt は元のツールの search_results.txt と同じ形式です。
Excel の非表示のシートは、元のツールと同じく既定では取り込まないため、検索しません（作った人が
見せていない計算用・作業用のシートが結果に混ざらないように）。取り込むときは
fumibako folder set インデックス名 --hidden-sheets on（結果では [シート]原価（非表示）!B3）。
終了コード: 0 見つかった、1 見つからなかった・インデックスがない・続けられないエラー、
2 書き方が正しくない・中止した。`,
		examples: []string{
			"fumibako search 見積 -下書き",
			"fumibako search 見積 --name '*.xlsx;!*old*' --index 営業",
			`fumibako search 請求 --folder 営業\2024`,
			"fumibako search --regex '第[0-9]+期' --json",
			"fumibako search --name '*見積*.xlsx'",
			"fumibako search 見積 --export ~/search_results.txt",
			"fumibako search 見積 --since 2024-04-01 --sort date --full-path",
			"fumibako search 見積 --export 結果.csv",
			"fumibako search -- --help",
		},
		setup: setupSearch})
}

// searchFlags are the flags of `fumibako search`.
type searchFlags struct {
	opts                search.Options
	indexes, kinds, not listFlag
	json                bool
	export, color       string
	format              string // export format: txt, csv, json ("" = by extension)
	freshness           bool   // the text export's trailing 更新日時 and 状態 columns
	fullPath            bool   // a full-path column (table header, TSV)
	sort, since, until  string
}

func setupSearch(fs *flag.FlagSet) func(*env, []string) error {
	f := &searchFlags{}
	fs.BoolVar(&f.opts.Case, "case", false, "表記の違い（大文字・小文字、全角・半角、空白、長音、異体字など）を区別する")
	fs.BoolVar(&f.opts.Regex, "regex", false, "ワードを正規表現（RE2）として扱う")
	fs.BoolVar(&f.opts.Kana, "kana", false, "ひらがなとカタカナを区別しない")
	fs.Var(&f.not, "not", "この`ワード`を含む行を除く（-ワード と同じ。繰り返し指定できます）")
	fs.Var(&f.indexes, "index", "この`インデックス名`だけを検索する（繰り返し指定できます）")
	fs.StringVar(&f.opts.Folder, "folder", "", "この`フォルダ`の中だけを検索する: インデックス名、インデックス名\\フォルダ、または元のフォルダの中のフォルダの絶対パス")
	fs.StringVar(&f.opts.Names, "name", "", "ファイル名の`パターン`: *.xlsx;見積;!*old*（; で区切る。! で除く）")
	fs.Var(&f.kinds, "kind", "この`種類`だけを検索する: excel・word・powerpoint・pdf・text・image（繰り返し、または , で区切る。.ods は excel、.odt と .rtf は word、.odp は powerpoint）")
	fs.BoolVar(&f.opts.NoShapes, "no-shapes", false, "図形と埋め込みファイルを検索しない")
	fs.BoolVar(&f.opts.NoComments, "no-comments", false, "コメントを検索しない")
	fs.BoolVar(&f.opts.NoNames, "no-names", false, "ファイルやフォルダの名前を検索しない（既定ではワードを含むファイル名も 種別「ファイル名」で出す）")
	fs.IntVar(&f.opts.Max, "max", search.DefaultMax, "この`件数`で打ち切る（既定: 10000。0 または -1 で上限なし）")
	fs.BoolVar(&f.json, "json", false, "1 件ごとに 1 行の JSON で出力する")
	fs.StringVar(&f.export, "export", "", "結果をこの`ファイル`に書き出す（.txt は search_results.txt の形式、.csv は CSV、.json は 1 行 1 件の JSON）")
	fs.StringVar(&f.format, "format", "", "--export の`形式`: txt・csv・json（既定: ファイルの拡張子で決める）")
	fs.BoolVar(&f.freshness, "freshness", false, "--export の .txt の右端に「更新日時」と「状態」（削除されています・変更されています）の列を足す")
	fs.BoolVar(&f.fullPath, "full-path", false, "ファイルのフルパス（元のフォルダ + パス）を表示する（端末ではファイル名の行、パイプでは最後の列）")
	fs.StringVar(&f.sort, "sort", "", "結果の`順`: path（既定。インデックスごとにフォルダ・ファイル名の自然な順）・date（更新日時の新しい順）・hits（該当の多い順）")
	fs.StringVar(&f.since, "since", "", "更新日時（インデックス作成時）がこの`日`以降のファイルだけ: 2024-04-01 または 2024/04/01")
	fs.StringVar(&f.until, "until", "", "更新日時（インデックス作成時）がこの`日`までのファイルだけ（その日を含む）")
	fs.StringVar(&f.color, "color", "auto", "該当箇所の`色付け`: auto（既定。端末のときだけ）・always・never")
	return func(e *env, words []string) error { return runSearch(e, f, words) }
}

func runSearch(e *env, f *searchFlags, words []string) error {
	// A search lives for milliseconds and keeps little: collecting less
	// often saves more than the heap it costs.
	debug.SetGCPercent(400)
	format, err := checkSearchFlags(f)
	if err != nil {
		return err
	}
	for _, w := range f.not {
		words = append(words, "-"+w)
	}
	f.opts.Indexes = f.indexes
	f.opts.Kinds = f.kinds
	if f.opts.Max == 0 {
		f.opts.Max = -1
	}
	// The query is checked before the workspace: a typo in the words is
	// reported even where no workspace exists yet.
	if _, err := search.Parse(words, f.opts); err != nil {
		return err
	}
	ws, s, err := openSettings(e)
	if err != nil {
		return err
	}
	indexes := search.Indexes(ws.ContentRoot(), s)
	if !anyIndexed(ws.ContentRoot(), indexes) {
		// Nothing can be found: say what to do, as the web UI does.
		fmt.Fprintln(e.stderr, search.MsgNoIndexYet)
		fmt.Fprintln(e.stderr, msgNoIndexYetCLI)
		return errShown
	}
	if f.opts.Folder != "" {
		if f.opts.Folder, err = resolveFolder(ws, indexes, f.opts.Folder); err != nil {
			return err
		}
	}
	q, err := search.Parse(words, f.opts)
	if err != nil {
		return err
	}
	if watch.Indexing(ws) {
		fmt.Fprintln(e.stderr, search.MsgDuringIndexing)
	}
	export := ""
	if f.export != "" {
		if export, err = exportTarget(f.export); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := newHitPrinter(e.stdout, f)
	fresh := search.NewChecker(indexes)
	out.fresh = fresh
	// Every order but the engine's needs the whole list: the hits are
	// collected (at most --max), sorted by file and then written.
	var collected []search.Hit
	st, err := search.Run(ctx, ws.ContentRoot(), indexes, q, func(h search.Hit) bool {
		collected = append(collected, h)
		return true
	})
	order.Files(collected, f.sort)
	if export == "" {
		for _, h := range collected {
			if out.print(h) != nil {
				break
			}
		}
	}
	out.flush()
	if err != nil && !st.Cancelled {
		return err
	}
	for _, p := range st.Problems {
		fmt.Fprintln(e.stderr, p.Message())
	}
	if export != "" {
		if err := writeExport(export, format, q.Text, collected, fresh.Check, f.freshness); err != nil {
			msg := fmt.Sprintf(msgExportFailed, export)
			if errors.Is(err, fs.ErrPermission) {
				// Windows refuses a file another app holds open so.
				msg += msgExportHint
			}
			return &fatalError{msg: msg, cause: err}
		}
		fmt.Fprintf(e.stdout, search.MsgExported+"\n", export, len(collected))
	}
	return reportSearch(e, st, q)
}

// checkSearchFlags checks the flags that take a word (--color, --sort,
// --format, --since, --until), sets the date range and returns the export
// format.
func checkSearchFlags(f *searchFlags) (format string, err error) {
	switch f.color {
	case "auto", "always", "never":
	default:
		return "", usagef("search", msgFlagBadValue, "--color", f.color, msgBadColor)
	}
	if !order.Valid(f.sort) {
		return "", usagef("search", msgFlagBadValue, "--sort", f.sort, msgBadSort)
	}
	format = export.FormatText
	if f.export != "" || f.format != "" {
		var ok bool
		if format, ok = export.FormatFor(f.export, f.format); !ok {
			return "", usagef("search", msgFlagBadValue, "--format", f.format, msgBadFormat)
		}
		if f.export == "" {
			return "", usagef("search", msgFormatNoExport)
		}
	}
	if f.opts.Dates, err = search.ParseDateRange(f.since, f.until); err != nil {
		return "", err
	}
	return format, nil
}

// reportSearch prints a search's closing lines on stderr and returns the
// outcome that picks the exit code.
func reportSearch(e *env, st search.Stats, q *search.Query) error {
	switch {
	case st.Cancelled:
		fmt.Fprintf(e.stderr, search.MsgCancelled+"\n", st.Hits)
	case st.Hits == 0:
		fmt.Fprintln(e.stderr, search.MsgNotFound)
	default:
		fmt.Fprintf(e.stderr, search.MsgDone+"\n", st.Hits, st.Files, fmt.Sprintf("%.2f", st.Total.Seconds()))
	}
	if st.Truncated {
		fmt.Fprintln(e.stderr, search.CutMessage(q.Max()))
		fmt.Fprintln(e.stderr, search.CutAtMessage(st))
	}
	if e.verbose {
		printStats(e.stderr, st)
	}
	switch {
	case st.Cancelled:
		return errStopped
	case st.Hits == 0:
		return errNoHits
	}
	return nil
}

// resolveFolder turns a --folder value into the `<index>\<folder>` form
// search.Options.Folder takes: an index name, `<index>\<folder>` (or /),
// or an absolute path inside a registered folder. A value that names
// nothing is an error that says so (exit 2) instead of a silent empty
// result.
func resolveFolder(ws *workspace.Workspace, indexes []search.Index, v string) (string, error) {
	v = strings.TrimRight(v, `\/`)
	if filepath.IsAbs(v) {
		clean := filepath.Clean(v)
		for _, r := range indexes {
			if r.RootPath == "" {
				continue
			}
			rel, err := filepath.Rel(filepath.Clean(r.RootPath), clean)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			if rel == "." {
				return r.Name, nil
			}
			return r.Name + `\` + strings.ReplaceAll(filepath.ToSlash(rel), "/", `\`), nil
		}
		return "", usagef("search", msgFolderOutside, v)
	}
	name, rest, _ := strings.Cut(strings.ReplaceAll(v, "/", `\`), `\`)
	var root search.Index
	ok := false
	var names []string
	for _, r := range indexes {
		names = append(names, r.Name)
		if workspace.FoldKey(r.Name) == workspace.FoldKey(name) {
			root, ok = r, true
		}
	}
	if !ok {
		if len(names) == 0 {
			return "", usagef("search", msgNoIndexes, name)
		}
		return "", unknownIndex("search", name, names)
	}
	if rest == "" {
		return root.Name, nil
	}
	// The folder or file must exist in the source folder or in the index
	// (a source folder that is offline is still searchable).
	sub := filepath.FromSlash(strings.ReplaceAll(rest, `\`, "/"))
	for _, p := range []string{filepath.Join(root.RootPath, sub), filepath.Join(ws.ContentRoot(), root.Name, sub)} {
		if _, err := os.Stat(p); err == nil && p != sub {
			return root.Name + `\` + rest, nil
		}
	}
	return "", usagef("search", msgFolderMissing, v)
}

// exportTarget is the export file's absolute path; its folder must exist.
func exportTarget(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", &fatalError{msg: fmt.Sprintf(msgExportFailed, p), cause: err}
	}
	if st, err := os.Stat(filepath.Dir(abs)); err != nil || !st.IsDir() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return "", fatalf(msgExportNoFolder, filepath.Dir(abs))
		}
		return "", &fatalError{msg: fmt.Sprintf(msgExportFailed, abs), cause: err}
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return "", fatalf(msgExportIsFolder, abs)
	}
	return abs, nil
}

// anyIndexed reports whether any of the indexes has been made: its folder
// exists under the content root.
func anyIndexed(contentRoot string, indexes []search.Index) bool {
	for _, ix := range indexes {
		if st, err := os.Stat(filepath.Join(contentRoot, ix.Name)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

// writeExport writes the export file in its format (export.WriteFormat)
// through workspace.CreateAtomic, so that a failed write leaves the
// previous file.
func writeExport(path, format, word string, hits []search.Hit, fresh func(search.Hit) search.Freshness, textExtra bool) error {
	f, err := workspace.CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := export.WriteFormat(f, format, word, hits, fresh, textExtra); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

func printStats(w io.Writer, st search.Stats) {
	fmt.Fprintf(w, "folders %d (summary skipped %d, filtered %d), parts %d (n-gram skipped %d, filtered %d), blocks scanned %d (skipped %d), bytes read %d\n",
		st.Folders, st.FoldersSkipped, st.FoldersFiltered, st.Parts, st.PartsSkipped, st.PartsFiltered, st.Blocks, st.BlocksSkipped, st.BytesRead)
	fmt.Fprintf(w, "time: walk %v, open %v, filter %v, scan %v, build %v, total %v\n",
		st.Walk.Round(time.Microsecond), st.Open.Round(time.Microsecond), st.Filter.Round(time.Microsecond),
		st.Scan.Round(time.Microsecond), st.Build.Round(time.Microsecond), st.Total.Round(time.Microsecond))
}
