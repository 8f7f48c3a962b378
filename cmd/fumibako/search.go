package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	commands["search"] = &command{summary: "search the index: WORD... [-WORD] [--regex] [--case] [--kana] [--index NAME] [--folder PATH] [--name PATTERNS] [--kind KIND] [--json] [--export FILE]", run: runSearch}
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// searchFlags are the flags of `fumibako search`.
type searchFlags struct {
	opts           search.Options
	indexes, kinds listFlag
	json, verbose  bool
	export, color  string
}

func newSearchFlags(e *env) (*flag.FlagSet, *searchFlags) {
	f := &searchFlags{}
	fs := newFlags(e, "search")
	fs.BoolVar(&f.opts.Case, "case", false, "match case exactly (default: ignore case and width)")
	fs.BoolVar(&f.opts.Regex, "regex", false, "words are RE2 regular expressions")
	fs.BoolVar(&f.opts.Kana, "kana", false, "hiragana and katakana match each other")
	fs.Var(&f.indexes, "index", "search only this index (repeatable)")
	fs.StringVar(&f.opts.Folder, "folder", "", `search only under this path: <index>\<folder>[\<file>]`)
	fs.StringVar(&f.opts.Names, "name", "", "file-name patterns: *.xlsx;見積;!*old*")
	fs.Var(&f.kinds, "kind", "excel, word, powerpoint or text (repeatable, or comma separated)")
	fs.BoolVar(&f.opts.NoShapes, "no-shapes", false, "skip shapes and embedded files")
	fs.BoolVar(&f.opts.NoComments, "no-comments", false, "skip comments")
	fs.IntVar(&f.opts.Max, "max", search.DefaultMax, "stop after this many hits (-1: no limit)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per hit")
	fs.StringVar(&f.export, "export", "", "write the hits to FILE in the search_results.txt format")
	fs.StringVar(&f.color, "color", "auto", "highlight matches: auto, always or never")
	fs.BoolVar(&f.verbose, "verbose", false, "print search statistics")
	return fs, f
}

// splitSearchArgs separates flags from words, so that `-下書き` is an
// excluded word while `--regex` and `-max 5` are flags.
func splitSearchArgs(fs *flag.FlagSet, args []string) (flags, words []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(words, args[i+1:]...)
		}
		name := strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || len(a) == 1 || name == "" {
			words = append(words, a)
			continue
		}
		name, _, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			words = append(words, a)
			continue
		}
		flags = append(flags, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, words
}

func runSearch(e *env, args []string) int {
	// A search lives for milliseconds and keeps little: collecting less
	// often saves more than the heap it costs.
	debug.SetGCPercent(400)
	fs, f := newSearchFlags(e)
	flagArgs, words := splitSearchArgs(fs, args)
	if err := fs.Parse(flagArgs); err != nil {
		return exitUsage
	}
	f.opts.Indexes = f.indexes
	f.opts.Kinds = f.kinds
	if f.opts.Max == 0 {
		f.opts.Max = -1
	}
	q, err := search.Parse(words, f.opts)
	if err != nil {
		return searchError(e, err)
	}
	ws, err := e.workspace()
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	s, notice, err := loadSettings(ws)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	if notice != "" {
		fmt.Fprintln(e.stderr, notice)
	}
	indexes := search.Indexes(ws.ContentRoot(), s)
	if ws.IsLocked() {
		fmt.Fprintln(e.stderr, search.MsgDuringIndexing)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := newHitPrinter(e.stdout, f)
	var collected []search.Hit
	st, err := search.Run(ctx, ws.ContentRoot(), indexes, q, func(h search.Hit) bool {
		if f.export != "" {
			collected = append(collected, h)
			return true
		}
		return out.print(h) == nil
	})
	out.flush()
	if err != nil && !st.Cancelled {
		return searchError(e, err)
	}
	for _, p := range st.Problems {
		fmt.Fprintln(e.stderr, p.Message())
	}
	if f.export != "" {
		if err := writeExport(f.export, q.Text, collected); err != nil {
			fmt.Fprintln(e.stderr, fmt.Sprintf(search.MsgExportLocked, filepath.Base(f.export)))
			fmt.Fprintln(e.stderr, "fumibako:", err)
			return exitUsage
		}
		fmt.Fprintf(e.stdout, search.MsgExported+"\n", filepath.Base(f.export), len(collected))
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
		fmt.Fprintf(e.stderr, search.MsgCutAt+"\n", st.CutAt, st.CutLabel)
	}
	if f.verbose {
		printStats(e.stderr, st)
	}
	switch {
	case st.Cancelled:
		return exitStopped
	case st.Hits == 0:
		return 1
	}
	return exitOK
}

// searchError prints a query error's Japanese text (exit 2) or any other
// error the usual way.
func searchError(e *env, err error) int {
	var qe *search.QueryError
	if errors.As(err, &qe) {
		fmt.Fprintln(e.stderr, qe.Msg)
		return exitUsage
	}
	e.fail(err)
	return exitUsage
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
	return p
}

// flush writes out buffered hits.
func (p *hitPrinter) flush() error {
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
		return p.json.Encode(h)
	}
	if !p.terminal {
		b := append(append(append(p.line[:0], h.Index...), '\\'), h.RelPath...)
		b = append(append(b, '\t'), h.Label...)
		b = append(append(b, '\t'), h.Kind...)
		b = append(b, '\t')
		b = append(appendDisplayLine(b, h, p.color), '\n')
		p.line = b
		_, err := p.w.Write(b)
		return err
	}
	text := displayLine(h, p.color)
	if h.Path() != p.lastFile {
		p.lastFile = h.Path()
		if p.color {
			fmt.Fprintf(p.w, "%s%s%s\n", colorFile, h.Path(), colorReset)
		} else {
			fmt.Fprintln(p.w, h.Path())
		}
	}
	label := h.Label + " " + h.Kind
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
