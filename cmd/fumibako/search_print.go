package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// hitPrinter writes hits: JSON lines, or a table (grouped by file with
// colours on a terminal, one TAB-separated row per hit otherwise).
type hitPrinter struct {
	w        io.Writer
	buf      *bufio.Writer
	json     *json.Encoder
	terminal bool
	color    bool
	lastFile string
	fullPath bool   // --full-path: the file's full path in the header / last column
	line     []byte // reused for each table row
	restore  func() // gives the console its mode back (Windows)
	// fresh tells a file changed or deleted since it was indexed (one
	// stat per file): the terminal table and --json mark such hits.
	fresh *search.Checker
}

// fileHeader is the terminal table's line above a file's hits: its path,
// its modification time as indexed and, when the file changed or was
// deleted since, the marker (issue 18).
func fileHeader(h search.Hit, f search.Freshness, color, full bool) string {
	head := shownPath(h)
	if full && h.FullPath != "" {
		head = h.FullPath
	}
	if color {
		head = colorFile + head + colorReset
	}
	if m := export.FormatModified(h.Modified); m != "" {
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
	p := &hitPrinter{w: w, fullPath: f.fullPath}
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
	var check func(search.Hit) search.Freshness
	if p.fresh != nil {
		check = p.fresh.Check
	}
	if p.json != nil {
		return p.json.Encode(export.NewJSONHit(h, check))
	}
	if !p.terminal {
		b := append(p.line[:0], shownPath(h)...)
		b = append(append(b, '\t'), h.Label...)
		b = append(append(b, '\t'), h.Kind...)
		b = append(append(b, '\t'), export.FormatModified(h.Modified)...)
		b = append(b, '\t')
		b = appendDisplayLine(b, h, p.color)
		b = append(b, '\t')
		if check != nil {
			b = append(b, check(h).Message()...)
		}
		if p.fullPath {
			b = append(append(b, '\t'), h.FullPath...)
		}
		b = append(b, '\n')
		p.line = b
		_, err := p.w.Write(b)
		return err
	}
	text := displayLine(h, p.color)
	if h.Path() != p.lastFile {
		p.lastFile = h.Path()
		var f search.Freshness
		if check != nil {
			f = check(h)
		}
		fmt.Fprintln(p.w, fileHeader(h, f, p.color, p.fullPath))
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

// shownPath is `<index><sep><path>` with the OS's separator: the table
// and the TSV are read on this computer (the reference's own files,
// search_results.txt and the ingest list, keep `\`).
func shownPath(h search.Hit) string {
	if filepath.Separator == '\\' {
		return h.Path()
	}
	return h.Index + string(filepath.Separator) + strings.ReplaceAll(h.RelPath, `\`, string(filepath.Separator))
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
