package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/search"
)

// The search stream (GET /api/search) is NDJSON, one object per line,
// flushed as hits arrive so that the first ones show before a slow search
// ends:
//
//	{"type":"hit", <search.Hit fields>, "placeLabel":"[シート]売上"}
//	{"type":"done", "hits":N, "files":M, "message":"該当 N 件（M ファイル） ・ 0.12 秒", ...}
//	{"type":"error", "message":"正規表現として不正です…", "word":0, "pos":3}
//
// A browser that starts a newer search aborts the request; the context
// then stops the engine. The query parameters are those of searchParams.

// hitLine is one hit of the stream.
type hitLine struct {
	Type string `json:"type"`
	search.Hit
	PlaceLabel string `json:"placeLabel"`
}

// doneLine ends the stream.
type doneLine struct {
	Type      string   `json:"type"`
	Hits      int      `json:"hits"`
	Files     int      `json:"files"`
	Seconds   float64  `json:"seconds"`
	Message   string   `json:"message"`
	Truncated bool     `json:"truncated"`
	Cut       string   `json:"cut,omitempty"`       // the cap's note
	Indexing  string   `json:"indexing,omitempty"`  // a run is writing the index
	Problems  []string `json:"problems,omitempty"`  // folders that could not be read
	Cancelled bool     `json:"cancelled,omitempty"` // (only seen by a client that did not abort)
}

type errorLine struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Word    int    `json:"word"`
	Pos     int    `json:"pos"`
}

// flushEvery bounds how long a hit waits in the buffer after the first.
const flushEvery = 50 * time.Millisecond

// searchParams reads a query from URL parameters: q (the box, split with
// search.SplitWords), regex, case, kana (1 = on), shapes, comments (0 =
// off; default on), filenames (0 = words do not match file names),
// exclude and excludeFiles (unchecked tree nodes: a folder's whole tree,
// or only its own files; one parameter per path),
// kinds (comma separated), indexes (one parameter per
// name), folder, names (file-name filter), since and until (the 更新日時
// range's first and last day, search.ParseDateRange, as the CLI's --since
// and --until), max.
func searchParams(v url.Values) (words []string, opt search.Options, err error) {
	words = search.SplitWords(v.Get("q"))
	on := func(k string) bool { return v.Get(k) == "1" || v.Get(k) == "true" }
	off := func(k string) bool { return v.Get(k) == "0" || v.Get(k) == "false" }
	opt.Regex, opt.Case, opt.Kana = on("regex"), on("case"), on("kana")
	opt.NoShapes, opt.NoComments = off("shapes"), off("comments")
	if k := v.Get("kinds"); k != "" {
		opt.Kinds = strings.Split(k, ",")
	}
	for _, n := range v["indexes"] {
		if n != "" {
			opt.Indexes = append(opt.Indexes, n)
		}
	}
	opt.Folder = v.Get("folder")
	opt.Names = v.Get("names")
	opt.NoNames = off("filenames")
	for _, p := range v["exclude"] {
		opt.Exclude = append(opt.Exclude, search.Exclude{Path: p, Subfolders: true})
	}
	for _, p := range v["excludeFiles"] {
		opt.Exclude = append(opt.Exclude, search.Exclude{Path: p})
	}
	if opt.Dates, err = search.ParseDateRange(v.Get("since"), v.Get("until")); err != nil {
		return nil, opt, err
	}
	if m := v.Get("max"); m != "" {
		if opt.Max, err = strconv.Atoi(m); err != nil {
			return nil, opt, fmt.Errorf("web: bad max %q", m)
		}
	}
	return words, opt, nil
}

// searchIndexes lists what can be searched: search.Indexes, the list the
// CLI searches too.
func (s *Server) searchIndexes() ([]search.Index, error) {
	st, _, err := s.loadSettings()
	if err != nil {
		return nil, err
	}
	return search.Indexes(s.ws.ContentRoot(), st), nil
}

// handleIndexes lists the index names for the search filter.
func (s *Server) handleIndexes(w http.ResponseWriter, r *http.Request) {
	ix, err := s.indexViews()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	names := []string{}
	for _, i := range ix {
		names = append(names, i.Name)
	}
	// openMode is the open menu's default; a hit's full path comes with
	// the hit (search.Hit.FullPath, the one lookup of its source folder).
	openMode := string(desktop.ModeNormal)
	if st, _, err := s.loadSettings(); err == nil {
		m, _ := desktop.ParseMode(st.OpenMode)
		openMode = string(m)
	}
	writeJSON(w, http.StatusOK, map[string]any{"indexes": names, "updated": ix, "excludes": s.searchExcludes(),
		"openMode": openMode})
}

// streamWriter writes NDJSON lines and flushes the first hit at once,
// later ones at most every flushEvery.
type streamWriter struct {
	mu        sync.Mutex
	w         http.ResponseWriter
	fl        http.Flusher
	enc       *json.Encoder
	lastFlush time.Time
	flushed   bool
	err       error
}

func newStreamWriter(w http.ResponseWriter) *streamWriter {
	fl, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &streamWriter{w: w, fl: fl, enc: enc}
}

func (sw *streamWriter) line(v any, flush bool) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.err != nil {
		return sw.err
	}
	if sw.err = sw.enc.Encode(v); sw.err != nil {
		return sw.err
	}
	if sw.fl != nil && (flush || !sw.flushed || time.Since(sw.lastFlush) >= flushEvery) {
		sw.fl.Flush()
		sw.flushed = true
		sw.lastFlush = time.Now()
	}
	return nil
}

// flushTicker starts a goroutine that flushes, every flushEvery, lines
// that wait in the buffer. The returned function stops it and returns once
// it has ended; a handler defers it, so that nothing touches the response
// after the handler returns.
func (sw *streamWriter) flushTicker() (stop func()) {
	quit, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(flushEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				sw.mu.Lock()
				if sw.fl != nil && sw.err == nil && time.Since(sw.lastFlush) >= flushEvery {
					sw.fl.Flush()
					sw.lastFlush = time.Now()
				}
				sw.mu.Unlock()
			}
		}
	}()
	return func() {
		close(quit)
		<-ended
	}
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	words, opt, err := searchParams(r.URL.Query())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	sw := newStreamWriter(w)
	q, err := search.Parse(words, opt)
	if err != nil {
		sw.line(queryErrorLine(err), true)
		return
	}
	indexes, err := s.searchIndexes()
	if err != nil {
		sw.line(errorLine{Type: "error", Message: err.Error(), Word: -1, Pos: -1}, true)
		return
	}
	// A ticker flushes hits that arrived after the last flush, so a slow
	// search shows them without waiting for the next one. It is stopped,
	// and waited for, before the handler returns: net/http recycles the
	// response's buffer then, and a late flush would write to nothing.
	defer sw.flushTicker()()
	st, err := search.Run(r.Context(), s.ws.ContentRoot(), indexes, q, func(h search.Hit) bool {
		pl := ""
		if !h.IsName() {
			pl = search.PlaceLabel(h.FileKind, h.Place)
		}
		return sw.line(hitLine{Type: "hit", Hit: h, PlaceLabel: pl}, false) == nil
	})
	if err != nil {
		if r.Context().Err() != nil {
			return // the browser moved on
		}
		var qe *search.QueryError
		if errors.As(err, &qe) {
			sw.line(queryErrorLine(err), true)
			return
		}
		sw.line(errorLine{Type: "error", Message: err.Error(), Word: -1, Pos: -1}, true)
		return
	}
	sw.line(s.doneLine(st), true)
}

func queryErrorLine(err error) errorLine {
	var qe *search.QueryError
	if errors.As(err, &qe) {
		return errorLine{Type: "error", Message: qe.Msg, Word: qe.Word, Pos: qe.Pos}
	}
	return errorLine{Type: "error", Message: err.Error(), Word: -1, Pos: -1}
}

// doneLine composes the counts line and notes (reference/gui.md §4.4).
func (s *Server) doneLine(st search.Stats) doneLine {
	sec := st.Total.Seconds()
	d := doneLine{Type: "done", Hits: st.Hits, Files: st.Files, Seconds: sec, Truncated: st.Truncated, Cancelled: st.Cancelled}
	if st.Hits == 0 {
		d.Message = search.MsgNotFound
	} else {
		d.Message = fmt.Sprintf(search.MsgDone, st.Hits, st.Files, secondsText(sec))
	}
	if st.Truncated {
		d.Cut = search.CutMessage(st.Hits)
		if st.CutAt != "" {
			d.Cut += search.CutAtMessage(st)
		}
	}
	if s.run.Running() || s.otherLock.Load() {
		d.Indexing = search.MsgDuringIndexing
	}
	for _, p := range st.Problems {
		d.Problems = append(d.Problems, p.Message())
	}
	return d
}

// secondsText is "0.4" style: two decimals below a second, one above.
func secondsText(sec float64) string {
	if sec < 1 {
		return strconv.FormatFloat(sec, 'f', 2, 64)
	}
	return strconv.FormatFloat(sec, 'f', 1, 64)
}
