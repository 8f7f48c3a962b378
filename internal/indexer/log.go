package indexer

import (
	"bufio"
	"fmt"
	"os"
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

// logf writes one line to indexing_log.txt (CRLF, flushed per line) and
// sends it to the observer.
func (r *run) logf(level Level, format string, a ...any) {
	line := fmt.Sprintf(format, a...)
	if r.log != nil {
		r.log.WriteString(line)
		r.log.WriteString("\r\n")
		r.log.Flush()
	}
	if r.opt.Observe != nil {
		r.opt.Observe(Event{Line: line, Level: level, Progress: r.progress})
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
