package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The freshness check (POST /api/fresh, issue 18): after the first hits
// are on screen, the browser sends the files it shows with the time and
// size their hits carry (search.Hit.Modified, Size); the server stats
// each file once and answers the ones that are not as indexed:
//
//	→ {"files":[{"path":"営業\\見積.xlsx","modified":"2026-…Z","size":18432}, …]}
//	← {"states":{"営業\\見積.xlsx":{"state":"changed","message":"インデックス作成後に変更されています"}}}
//
// The browser keeps the answers for the page (one stat per shown file) and
// marks those hits. A file of an index without a registered root is not
// checked. The stats run on at most freshWorkers goroutines, all of which
// end before the handler returns.

// freshMax bounds the files of one request.
const freshMax = 1000

// freshWorkers is how many stats run at once (a network share answers
// slowly; local disks do not care).
const freshWorkers = 8

type freshFile struct {
	Path     string    `json:"path"`
	Modified time.Time `json:"modified"`
	Size     int64     `json:"size"`
}

type freshState struct {
	State   search.Freshness `json:"state"`
	Message string           `json:"message"`
}

func (s *Server) handleFresh(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Files []freshFile `json:"files"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	if len(req.Files) > freshMax {
		req.Files = req.Files[:freshMax]
	}
	indexes, err := s.searchIndexes()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	c := search.NewChecker(indexes)
	out := make([]search.Freshness, len(req.Files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(freshWorkers, len(req.Files)) {
		wg.Go(func() {
			for i := range next {
				f := req.Files[i]
				if !ingestlist.ValidRelPath(f.Path) {
					continue
				}
				index, rest := ingestlist.SplitRelPath(f.Path)
				out[i] = c.CheckPath(index, rest, f.Modified, f.Size)
			}
		})
	}
feed:
	for i := range req.Files {
		select {
		case next <- i:
		case <-r.Context().Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	states := map[string]freshState{}
	for i, f := range out {
		if f != search.Fresh {
			states[req.Files[i].Path] = freshState{State: f, Message: f.Message()}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"states": states})
}

// indexView is one index of the search screen's target list: its name and
// when it was last updated (the newest 取り込み日時 of its files,
// `2006/01/02 15:04`; "" when never).
type indexView struct {
	Name    string `json:"name"`
	Updated string `json:"updated"`
}

// indexViews lists the searchable indexes with their last update.
func (s *Server) indexViews() ([]indexView, error) {
	ix, err := s.searchIndexes()
	if err != nil {
		return nil, err
	}
	l, err := s.ingestList()
	if err != nil {
		return nil, err
	}
	counts := l.CountByIndex()
	out := []indexView{}
	for _, i := range ix {
		v := indexView{Name: i.Name}
		if c := counts[workspace.FoldKey(i.Name)]; c != nil {
			v.Updated = dateTime(c.Last)
		}
		out = append(out, v)
	}
	return out, nil
}
