package main

import (
	"bufio"
	"context"
	"encoding/json"
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
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/search"
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
終了コード: 0 見つかった、1 見つからなかった・続けられないエラー、2 書き方が正しくない・中止した。`,
		examples: []string{
			"fumibako search 見積 -下書き",
			"fumibako search 見積 --name '*.xlsx;!*old*' --index 営業",
			`fumibako search 請求 --folder 営業\2024`,
			"fumibako search --regex '第[0-9]+期' --json",
			"fumibako search --name '*見積*.xlsx'",
			"fumibako search 見積 --export ~/search_results.txt",
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
	fs.StringVar(&f.export, "export", "", "結果を search_results.txt の形式でこの`ファイル`に書き出す")
	fs.StringVar(&f.color, "color", "auto", "該当箇所の`色付け`: auto（既定。端末のときだけ）・always・never")
	return func(e *env, words []string) error { return runSearch(e, f, words) }
}

func runSearch(e *env, f *searchFlags, words []string) error {
	// A search lives for milliseconds and keeps little: collecting less
	// often saves more than the heap it costs.
	debug.SetGCPercent(400)
	switch f.color {
	case "auto", "always", "never":
	default:
		return usagef("search", msgFlagBadValue, "--color", f.color, msgBadColor)
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
	out.fresh = search.NewChecker(indexes)
	var collected []search.Hit
	st, err := search.Run(ctx, ws.ContentRoot(), indexes, q, func(h search.Hit) bool {
		if export != "" {
			collected = append(collected, h)
			return true
		}
		return out.print(h) == nil
	})
	out.flush()
	if err != nil && !st.Cancelled {
		return err
	}
	for _, p := range st.Problems {
		fmt.Fprintln(e.stderr, p.Message())
	}
	if export != "" {
		if err := writeExport(export, q.Text, collected); err != nil {
			msg := fmt.Sprintf(msgExportFailed, export)
			if errors.Is(err, fs.ErrPermission) {
				// Windows refuses a file another app holds open so.
				msg += msgExportHint
			}
			return &fatalError{msg: msg, cause: err}
		}
		fmt.Fprintf(e.stdout, search.MsgExported+"\n", export, len(collected))
	}
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

// writeExport writes the export file through workspace.CreateAtomic, so
// that a failed write leaves the previous file.
func writeExport(path, word string, hits []search.Hit) error {
	f, err := workspace.CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := search.WriteExport(f, word, hits); err != nil {
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

// hitPrinter writes hits: JSON lines, or a table (grouped by file with
// colours on a terminal, one TAB-separated row per hit otherwise).
type hitPrinter struct {
	w        io.Writer
	buf      *bufio.Writer
	json     *json.Encoder
	terminal bool
	color    bool
	lastFile string
	line     []byte // reused for each table row
	restore  func() // gives the console its mode back (Windows)
	// fresh tells a file changed or deleted since it was indexed (one
	// stat per file): the terminal table and --json mark such hits.
	fresh *search.Checker
}

// jsonHit is one line of --json: the hit, and its file's freshness
// ("deleted", "changed"; absent when as indexed).
type jsonHit struct {
	search.Hit
	Freshness search.Freshness `json:"freshness,omitempty"`
}

// fileHeader is the terminal table's line above a file's hits: its path,
// its modification time as indexed and, when the file changed or was
// deleted since, the marker (issue 18).
func fileHeader(h search.Hit, f search.Freshness, color bool) string {
	head := h.Path()
	if color {
		head = colorFile + head + colorReset
	}
	if m := search.FormatModified(h.Modified); m != "" {
		head += "  " + m
	}
	if msg := f.Message(); msg != "" {
		if color {
			msg = colorMatch + "⚠ " + msg + colorReset
		} else {
			msg = "⚠ " + msg
		}
		head += "  " + msg
	}
	return head
}

func newHitPrinter(w io.Writer, f *searchFlags) *hitPrinter {
	p := &hitPrinter{w: w}
	if file, ok := w.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		p.terminal = true
	} else {
		// Hits stream to a terminal line by line; to a pipe or file they
		// are buffered (10,000 single writes cost more than the search).
		p.buf = bufio.NewWriterSize(w, 64<<10)
		p.w = p.buf
	}
	if f.json {
		p.json = json.NewEncoder(p.w)
		p.json.SetEscapeHTML(false)
		p.terminal = false
		return p
	}
	p.color = f.color == "always" || (f.color == "auto" && p.terminal)
	if file, ok := w.(*os.File); ok && p.color && p.terminal {
		// A classic Windows console shows colours only once asked to.
		restore, vt := enableVT(file)
		p.color, p.restore = vt, restore
	}
	return p
}

// flush writes out buffered hits and gives the console its mode back.
func (p *hitPrinter) flush() error {
	if p.restore != nil {
		p.restore()
		p.restore = nil
	}
	if p.buf != nil {
		return p.buf.Flush()
	}
	return nil
}

const (
	colorFile  = "\x1b[1;35m"
	colorPlace = "\x1b[32m"
	colorMatch = "\x1b[1;31m"
	colorReset = "\x1b[0m"
)

func (p *hitPrinter) print(h search.Hit) error {
	if p.json != nil {
		jh := jsonHit{Hit: h}
		if p.fresh != nil {
			jh.Freshness = p.fresh.Check(h)
		}
		return p.json.Encode(jh)
	}
	if !p.terminal {
		b := append(append(append(p.line[:0], h.Index...), '\\'), h.RelPath...)
		b = append(append(b, '\t'), h.Label...)
		b = append(append(b, '\t'), h.Kind...)
		b = append(append(b, '\t'), search.FormatModified(h.Modified)...)
		b = append(b, '\t')
		b = append(appendDisplayLine(b, h, p.color), '\n')
		p.line = b
		_, err := p.w.Write(b)
		return err
	}
	text := displayLine(h, p.color)
	if h.Path() != p.lastFile {
		p.lastFile = h.Path()
		var f search.Freshness
		if p.fresh != nil {
			f = p.fresh.Check(h)
		}
		fmt.Fprintln(p.w, fileHeader(h, f, p.color))
	}
	label := h.Kind
	if h.Label != "" {
		label = h.Label + " " + h.Kind
	}
	if p.color {
		label = colorPlace + label + colorReset
	}
	_, err := fmt.Fprintf(p.w, "  %s  %s\n", label, text)
	return err
}

// displayWindow is how many characters of a long line the table shows.
const displayWindow = 160

// displayLine renders a hit's line for the table: TAB as │, U+2028 as ↵,
// long lines cut around the first match, matches highlighted.
func displayLine(h search.Hit, color bool) string {
	return string(appendDisplayLine(nil, h, color))
}

// appendDisplayLine appends what displayLine returns to b (one buffer per
// printer: 10,000 hits must not cost 10,000 builders).
func appendDisplayLine(b []byte, h search.Hit, color bool) []byte {
	text, ms := h.Text, h.Matches
	start, end := 0, len(text)
	if utf8.RuneCountInString(text) > displayWindow {
		first := 0
		if len(ms) > 0 {
			first = ms[0][0]
		}
		start = backRunes(text, first, 40)
		end = start
		for n := 0; n < displayWindow && end < len(text); n++ {
			_, size := utf8.DecodeRuneInString(text[end:])
			end += size
		}
	}
	if start > 0 {
		b = append(b, "…"...)
	}
	pos := start
	for _, m := range ms {
		s, t := max(m[0], pos), min(m[1], end)
		if s >= t {
			continue
		}
		b = appendShown(b, text[pos:s])
		if color {
			b = append(b, colorMatch...)
			b = appendShown(b, text[s:t])
			b = append(b, colorReset...)
		} else {
			b = appendShown(b, text[s:t])
		}
		pos = t
	}
	if pos < end {
		b = appendShown(b, text[pos:end])
	}
	if end < len(text) {
		b = append(b, "…"...)
	}
	return b
}

// appendShown appends s with TAB shown as " │ " and U+2028 as ↵.
func appendShown(b []byte, s string) []byte {
	from := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\t':
			b = append(append(b, s[from:i]...), " │ "...)
			from = i + 1
		case s[i] == 0xE2 && strings.HasPrefix(s[i:], "\u2028"):
			b = append(append(b, s[from:i]...), "↵"...)
			i += len("\u2028") - 1
			from = i + 1
		}
	}
	return append(b, s[from:]...)
}

// backRunes returns the byte offset n runes before off.
func backRunes(s string, off, n int) int {
	for ; n > 0 && off > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:off])
		off -= size
	}
	return off
}
