package web

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// Export formats: search_results.txt is the reference's file
// (export.Write, reference/search.md §8), search_results.csv the
// same hits for a spreadsheet with each file's time, size and freshness
// (export.WriteCSV): the writers the CLI's --export uses too.
const (
	// Export statuses (reference/search.md §8); the browser shows them.
	msgExportedFiltered = "絞り込み後の %d 件を %s に出力しました"
)

// handleExport answers POST /api/export {query, filter, format}: query is
// the search's URL query (as sent to /api/search), filter the local filter
// box, format txt or csv. The search runs again (its order is fixed, so
// the hits are those shown) and the file comes back as a download.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query  string
		Filter string
		Format string
	}
	if !readJSON(w, r, &req) {
		return
	}
	vals, err := url.ParseQuery(req.Query)
	if err != nil || strings.TrimSpace(vals.Get("q")) == "" {
		writeUserError(w, http.StatusBadRequest, msgSearchFirst)
		return
	}
	words, opt, err := searchParams(vals)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q, err := search.Parse(words, opt)
	if err != nil {
		writeUserError(w, http.StatusBadRequest, queryErrorLine(err).Message)
		return
	}
	indexes, err := s.searchIndexes()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	var hits []search.Hit
	keep := localFilter(req.Filter)
	if _, err := search.Run(r.Context(), s.ws.ContentRoot(), indexes, q, func(h search.Hit) bool {
		if keep(h) {
			hits = append(hits, h)
		}
		return true
	}); err != nil {
		if r.Context().Err() != nil {
			return // the browser went away: nobody to answer
		}
		writeUserError(w, http.StatusBadRequest, queryErrorLine(err).Message)
		return
	}
	var buf bytes.Buffer
	name := export.TextName
	switch req.Format {
	case "", "txt":
		err = export.Write(&buf, q.Text, hits)
	case "csv":
		name = export.CSVName
		err = export.WriteCSV(&buf, hits, search.NewChecker(indexes).Check)
	default:
		writeError(w, http.StatusBadRequest, "web: unknown export format "+req.Format)
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	status := fmt.Sprintf(search.MsgExported, name, len(hits))
	if strings.TrimSpace(req.Filter) != "" {
		status = fmt.Sprintf(msgExportedFiltered, len(hits), name)
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("X-Fumibako-Count", strconv.Itoa(len(hits)))
	h.Set("X-Fumibako-Status", url.QueryEscape(status))
	h.Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// localFilter is the result filter box (reference/gui.md §4.5): a
// substring, ignoring case, of the folder and file name, place, kind or
// raw line; the browser applies the same rule to what it shows.
func localFilter(f string) func(search.Hit) bool {
	f = strings.ToLower(strings.TrimSpace(f))
	if f == "" {
		return func(search.Hit) bool { return true }
	}
	return func(h search.Hit) bool {
		pl := ""
		if !h.IsName() {
			pl = search.PlaceLabel(h.FileKind, h.Place)
		}
		for _, s := range []string{h.Path(), pl, h.Kind, h.Text} {
			if strings.Contains(strings.ToLower(s), f) {
				return true
			}
		}
		return false
	}
}
