package indexer

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func (r *run) openLog() error {
	f, err := os.Create(r.ws.Log())
	if err != nil {
		return fmt.Errorf("indexer: create log %s: %w", r.ws.Log(), err)
	}
	r.logF = f
	r.log = bufio.NewWriter(f)
	r.log.WriteString("\ufeff")
	return nil
}

func (r *run) closeLog() {
	if r.log != nil {
		r.log.Flush()
		r.logF.Close()
	}
}

// logf writes one line to indexing_log.txt (CRLF, flushed per line, or
// per file's result while record holds the log) and sends it to the
// observer.
func (r *run) logf(level Level, format string, a ...any) {
	r.emit(level, "", fmt.Sprintf(format, a...))
}

// fileLogf is logf for a line about one file (Event.File).
func (r *run) fileLogf(rel string, level Level, format string, a ...any) {
	r.emit(level, rel, fmt.Sprintf(format, a...))
}

func (r *run) emit(level Level, rel, line string) {
	if r.log != nil {
		r.log.WriteString(line)
		r.log.WriteString("\r\n")
		if !r.logHeld {
			r.log.Flush()
		}
	}
	if r.opt.Observe != nil {
		r.opt.Observe(Event{Line: line, Level: level, Progress: r.progress, File: rel})
	}
}

// logDetail writes a file's English error chain to indexing_log.txt only,
// after the file's lines: observers (the terminal, the web UI) get the
// Japanese message alone (issue 16). Blank details write nothing.
func (r *run) logDetail(detail string) {
	detail = strings.Join(strings.Fields(detail), " ")
	if detail == "" || r.log == nil {
		return
	}
	r.log.WriteString(sprintf(msgDetail, detail))
	r.log.WriteString("\r\n")
	if !r.logHeld {
		r.log.Flush()
	}
}

// holdLog keeps the log's lines in its buffer until the returned release
// flushes them: the lines of one file's result (its head, its outcome,
// its detail) go to indexing_log.txt in one write.
func (r *run) holdLog() (release func()) {
	r.logHeld = true
	return func() {
		r.logHeld = false
		if r.log != nil {
			r.log.Flush()
		}
	}
}

// finished sends the event that closes a file: its outcome and reason.
func (r *run) finished(rel string, o Outcome, reason string) {
	if r.opt.Observe != nil {
		r.opt.Observe(Event{Progress: r.progress, File: rel, Outcome: o, Reason: reason})
	}
}

// update sends a progress-only event.
func (r *run) update() {
	if r.opt.Observe != nil {
		r.opt.Observe(Event{Progress: r.progress})
	}
}

func (r *run) phase(p string) {
	r.progress.Phase = p
	r.update()
}
