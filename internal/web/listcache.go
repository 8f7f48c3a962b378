package web

import (
	"os"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// listRefresh is how stale the ingest list a page sees may be while a run
// is appending to it.
const listRefresh = 2 * time.Second

// listCache keeps the parsed ingest list between requests. The index page
// polls /api/state and /api/failures while a run appends rows; parsing a
// 650,000-row list for every poll took most of the CPU of an index run
// inside serve (issue 21). The list is read again when its size or
// modification time changed, and during a run at most once per
// listRefresh. The cached list is shared: callers only read it.
type listCache struct {
	mu   sync.Mutex
	l    *ingestlist.List
	size int64
	mod  time.Time
	at   time.Time
}

// ingestList returns the workspace's ingest list, parsed at most once per
// change of the file (or per listRefresh while running).
func (s *Server) ingestList() (*ingestlist.List, error) {
	path := s.ws.IngestList()
	c := &s.lists
	c.mu.Lock()
	defer c.mu.Unlock()
	fi, err := os.Stat(path)
	if err != nil {
		c.l = nil
		return ingestlist.ReadFile(path)
	}
	now := time.Now()
	if c.l != nil {
		same := fi.Size() == c.size && fi.ModTime().Equal(c.mod)
		if same {
			return c.l, nil
		}
		if s.run.Running() && now.Sub(c.at) < listRefresh {
			return c.l, nil
		}
	}
	l, err := ingestlist.ReadFile(path)
	if err != nil {
		c.l = nil
		return nil, err
	}
	c.l, c.size, c.mod, c.at = l, fi.Size(), fi.ModTime(), now
	return l, nil
}
