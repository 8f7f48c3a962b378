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

// progressUI renders indexer events: on a terminal a bar redrawn about 10
// times a second under the log lines, otherwise plain log lines.
type progressUI struct {
	w       io.Writer
	tty     bool
	last    time.Time
	start   time.Time
	p       indexer.Progress
	barShow bool
}

func newProgressUI(w io.Writer, plain bool) *progressUI {
	tty := false
	if f, ok := w.(*os.File); ok && !plain {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progressUI{w: w, tty: tty, start: time.Now()}
}

var levelColor = map[indexer.Level]string{indexer.Warn: "\x1b[33m", indexer.Error: "\x1b[31m", indexer.Good: "\x1b[32m"}

func (u *progressUI) observe(ev indexer.Event) {
	if ev.Progress.Phase == indexer.PhaseIngest && u.p.Phase != indexer.PhaseIngest {
		u.start = time.Now()
	}
	u.p = ev.Progress
	if ev.Line != "" || ev.Progress.Phase == "" {
		u.clearBar()
		if c, ok := levelColor[ev.Level]; ok && u.tty {
			fmt.Fprintf(u.w, "%s%s\x1b[0m\n", c, ev.Line)
		} else {
			fmt.Fprintln(u.w, ev.Line)
		}
	}
	if u.tty && u.p.Phase == indexer.PhaseIngest && u.p.Total > 0 && time.Since(u.last) > 100*time.Millisecond {
		u.drawBar()
	}
}

func (u *progressUI) clearBar() {
	if u.barShow {
		fmt.Fprint(u.w, "\r\x1b[2K")
		u.barShow = false
	}
}

func (u *progressUI) drawBar() {
	u.last = time.Now()
	p := u.p
	const width = 24
	fill := 0
	if p.Total > 0 {
		fill = width * p.Done / p.Total
	}
	rate := 0.0
	if el := time.Since(u.start).Seconds(); el > 0 {
		rate = float64(p.Done) / el
	}
	left := "-"
	if rate > 0 {
		left = (time.Duration(float64(p.Total-p.Done)/rate) * time.Second).Round(time.Second).String()
	}
	cur := []rune(p.Current)
	if len(cur) > 40 {
		cur = append([]rune("…"), cur[len(cur)-39:]...)
	}
	fmt.Fprintf(u.w, "\r\x1b[2K[%s%s] %d/%d 失敗 %d  %.1f 件/秒  残り %s  %s",
		strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.Done, p.Total, p.Failed, rate, left, string(cur))
	u.barShow = true
}

func (u *progressUI) done() { u.clearBar() }
