package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Server-sent events (GET /api/events): the index page's live view.
//
//	event: state   data: an indexing.View (sent at start and on every change,
//	               at most about 10 times a second)
//	event: log     data: an array of indexing.LogLine (lines since the last send)
//
// The query parameter log=N asks for the kept log lines from sequence N on
// (a reconnecting page passes the next number it expects).
const (
	eventInterval = 100 * time.Millisecond // the bar is redrawn ~10 times a second
	idleRecheck   = 2 * time.Second        // lock held by another process
)

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	next, _ := strconv.Atoi(r.URL.Query().Get("log"))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	for {
		v, changed := s.runView()
		if lines := s.run.LogsSince(next); len(lines) > 0 {
			next = lines[len(lines)-1].Seq + 1
			if writeEvent(w, "log", lines) != nil {
				return
			}
		}
		if writeEvent(w, "state", v) != nil {
			return
		}
		fl.Flush()
		select {
		case <-ctx.Done():
			return
		case <-s.closing:
			return
		case <-changed:
		case <-time.After(idleRecheck):
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(eventInterval):
		}
	}
}

func writeEvent(w http.ResponseWriter, name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	return err
}
