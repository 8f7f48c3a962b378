package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/indexer"
)

// progressUI renders the indexer's events for `fumibako index` (STYLE.md
// §6), in one of three modes:
//
//   - terminal: one status line kept at the bottom (bar, done/total,
//     failures, smoothed rate, time left, the current file with its name
//     whole), redrawn at most ten times a second. The lines about the run,
//     and every line of a file that failed or warned, scroll above it; the
//     lines of files that went well are only in the log file. When the run
//     reaches its finishing phase the status line is printed one last time
//     and stays, and the summary follows below it.
//   - plain (not a terminal, or --plain): every log line, no status line.
//   - json (--json): one JSON object per event (README "--json").
//
// The indexer's own copy of a fatal error (＜エラー＞ and its text) is not
// printed: report prints the error once, on stderr.
type progressUI struct {
	w     io.Writer
	mode  progressMode
	width func() int // terminal columns
	now   func() time.Time

	p         indexer.Progress
	rate      indexer.Rate
	barShown  bool      // the status line is on screen (no newline after it)
	frozen    bool      // the final status line has been printed
	lastDraw  time.Time // when the status line was last drawn
	started   bool      // json: the start event is out
	announced bool      // the ingest phase's first line is out: the bar may show

	held     []indexer.Event // lines of the current file, shown if it fails or warns
	heldFile string
	showFile string // the file whose lines are being shown
	skipNext bool   // the next line is the fatal error's text

	// plainFile holds, in plain mode, the lines of the file being
	// recorded until its outcome: one write per file, not per line
	// (issue 35).
	plainFile []byte

	json    *jsonLines
	restore func() // gives the console its mode back (Windows)
}

type progressMode int

const (
	modePlain progressMode = iota
	modeTerminal
	modeJSON
)

// fatalMark is the line the indexer logs before a fatal error's text.
const fatalMark = "＜エラー＞"

// barCells is the width of the bar itself, in columns.
const barCells = 20

// redrawEvery bounds how often the status line is redrawn.
const redrawEvery = 100 * time.Millisecond

func newProgressUI(w io.Writer, plain, asJSON bool) *progressUI {
	u := &progressUI{w: w, mode: modePlain, now: time.Now, width: func() int { return 80 }, restore: func() {}}
	switch {
	case asJSON:
		u.mode = modeJSON
		u.json = newJSONLines(w)
	case plain:
	default:
		if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			restore, vt := enableVT(f)
			if !vt {
				break
			}
			u.mode, u.restore = modeTerminal, restore
			u.width = func() int {
				if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 0 {
					return c
				}
				return 80
			}
		}
	}
	return u
}

var levelColor = map[indexer.Level]string{indexer.Warn: "\x1b[33m", indexer.Error: "\x1b[31m", indexer.Good: "\x1b[32m"}

func (u *progressUI) observe(ev indexer.Event) {
	u.p = ev.Progress
	if u.p.Phase == indexer.PhaseIngest {
		u.rate.Observe(u.now(), u.p.Done)
	}
	if u.mode == modeJSON {
		u.observeJSON(ev)
		return
	}
	// An empty line and a progress update look alike; empty lines are
	// kept only before the first phase (the notices' block).
	if ev.Line != "" || ev.Outcome == "" && ev.Progress.Phase == "" {
		u.line(ev)
	}
	if ev.Outcome != "" {
		u.held, u.heldFile, u.showFile = nil, "", ""
		u.flushPlain()
	}
	if u.mode != modeTerminal {
		return
	}
	if u.p.Phase == indexer.PhaseFinish && u.barShown && !u.frozen {
		u.draw()
		fmt.Fprint(u.w, "\n")
		u.barShown, u.frozen = false, true
		return
	}
	if u.p.Phase == indexer.PhaseIngest && ev.Line != "" && ev.File == "" {
		u.announced = true
	}
	// The bar appears after the ingest phase's announcement, not before
	// it (issue 32: drawn, erased, then the announcement).
	if u.p.Phase == indexer.PhaseIngest && u.announced && u.p.Total > 0 && !u.frozen && (!u.barShown || u.now().Sub(u.lastDraw) >= redrawEvery) {
		u.draw()
	}
}

// line handles one log line: the fatal copy is dropped; on a terminal a
// file's lines wait until it is known whether the file failed or warned.
func (u *progressUI) line(ev indexer.Event) {
	if u.skipNext {
		u.skipNext = false
		return
	}
	if ev.File == "" && ev.Level == indexer.Error && ev.Line == fatalMark {
		u.skipNext = true
		return
	}
	if u.mode != modeTerminal || ev.File == "" || ev.File == u.showFile {
		u.print(ev)
		return
	}
	if ev.File != u.heldFile {
		u.held, u.heldFile = nil, ev.File
	}
	if ev.Level == indexer.Info || ev.Level == indexer.Good {
		u.held = append(u.held, ev)
		return
	}
	for _, h := range u.held {
		u.print(h)
	}
	u.held, u.heldFile, u.showFile = nil, "", ev.File
	u.print(ev)
}

// print writes a line above the status line.
func (u *progressUI) print(ev indexer.Event) {
	if u.mode != modeTerminal {
		if u.plainFile = append(append(u.plainFile, ev.Line...), '\n'); ev.File == "" {
			u.flushPlain()
		}
		return
	}
	clear := ""
	if u.barShown {
		clear = "\r\x1b[K"
		u.barShown = false
	}
	// The program wraps, at word boundaries, what the terminal would
	// cut anywhere (issue 32).
	for _, l := range wrapLine(ev.Line, u.width()-1) {
		if c, ok := levelColor[ev.Level]; ok {
			fmt.Fprintf(u.w, "%s%s%s\x1b[0m\n", clear, c, l)
		} else {
			fmt.Fprintf(u.w, "%s%s\n", clear, l)
		}
		clear = ""
	}
}

// flushPlain writes the plain lines held.
func (u *progressUI) flushPlain() {
	if len(u.plainFile) > 0 {
		u.w.Write(u.plainFile)
		u.plainFile = u.plainFile[:0]
	}
}

// draw redraws the status line in place.
func (u *progressUI) draw() {
	u.lastDraw = u.now()
	fmt.Fprint(u.w, "\r"+statusLine(u.p, &u.rate, u.width()-1)+"\x1b[K")
	u.barShown = true
}

// statusLine is the terminal's status line in at most cols columns:
// `[#####.....] 735/760 件 失敗 3 12.5 件/秒 残り 約 2 分  営業\…\見積\a.xlsx`.
// While a file is read by OCR, its pages follow the failures
// (`OCR 12/300 ページ`, issue 29), and while a file waits for the PDF
// engine's one-time compile its note does (`PDF を読む準備をしています
// （初回だけ）`, issue 33). On a narrow terminal the parts go in this
// order: the current file, the rate, the time left, the OCR pages (or
// the preparation), the failures.
func statusLine(p indexer.Progress, rate *indexer.Rate, cols int) string {
	fill := 0
	if p.Total > 0 {
		fill = min(barCells, barCells*p.Done/p.Total)
	}
	bar := "[" + strings.Repeat("#", fill) + strings.Repeat(".", barCells-fill) + "]"
	// parts in display order; keep says which fit, filled by priority.
	parts := []string{fmt.Sprintf(msgBar, bar, p.Done, p.Total), "", "", "", ""}
	if p.Failed > 0 {
		parts[1] = fmt.Sprintf(msgBarFailed, p.Failed)
	}
	if p.OCRTotal > 0 {
		parts[2] = fmt.Sprintf(msgBarOCR, p.OCRDone, p.OCRTotal)
	} else if p.Preparing != "" {
		parts[2] = " " + p.Preparing
	}
	if r := rate.PerSecond(); r > 0 {
		parts[3] = fmt.Sprintf(msgBarRate, r)
	}
	if left, ok := rate.Left(p.Remaining); ok && p.Remaining > 0 {
		parts[4] = fmt.Sprintf(msgBarLeft, leftText(left))
	}
	if displayWidth(parts[0]) >= cols {
		return truncateRight(parts[0], cols)
	}
	used := displayWidth(parts[0])
	keep := []bool{true, false, false, false, false}
	for _, i := range []int{1, 2, 4, 3} {
		if wd := displayWidth(parts[i]); used+wd <= cols {
			keep[i], used = true, used+wd
		}
	}
	var b strings.Builder
	for i, part := range parts {
		if keep[i] {
			b.WriteString(part)
		}
	}
	s := b.String()
	if p.Current != "" && keep[3] && keep[4] {
		if room := cols - displayWidth(s) - 2; room >= 8 {
			s += "  " + shortenPath(p.Current, room)
		}
	}
	return s
}

// leftText is the time left as the status line shows it: seconds rounded
// up to 5 under a minute, else whole minutes (a smoothed estimate is not
// worth more digits).
func leftText(d time.Duration) string {
	if d < time.Minute {
		s := (int(d.Seconds()) + 4) / 5 * 5
		return fmt.Sprintf("約 %d 秒", max(5, s))
	}
	return fmt.Sprintf("約 %d 分", int((d+30*time.Second)/time.Minute))
}

// done ends the display: a status line still on screen is finished with a
// newline so that nothing after it overwrites it.
func (u *progressUI) done() {
	u.flushPlain()
	if u.barShown {
		fmt.Fprint(u.w, "\n")
		u.barShown = false
	}
	if u.restore != nil {
		u.restore()
	}
}
