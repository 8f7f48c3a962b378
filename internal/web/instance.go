package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// One server per workspace (issue 32): a running server records its
// address in work/serve.json (Workspace.ServeState), and a second
// `fumibako serve` opens that page instead of starting another server.
//
// serve.json is UTF-8 JSON without BOM, written through
// workspace.WriteFileAtomic:
//
//	{"url": "http://127.0.0.1:53124/", "pid": 4242, "host": "PC-01", "workspace": "C:\\Users\\a\\AppData\\Local\\fumibako"}
//
// A record is trusted only when the server it names answers GET
// /api/instance with the same workspace: a server that was killed, or a
// pid reused since, leaves a file that is simply overwritten. A record
// made on another host (a workspace on a shared drive) is never used: its
// 127.0.0.1 is not ours. A file that is not JSON is treated as absent.

// Instance is the content of serve.json and the answer of /api/instance.
type Instance struct {
	URL       string `json:"url"`
	PID       int    `json:"pid"`
	Host      string `json:"host"`
	Workspace string `json:"workspace"`
}

// instanceWait bounds the liveness check of a recorded server.
const instanceWait = 2 * time.Second

// RunningInstance returns the live server recorded for ws on this host.
func RunningInstance(ws *workspace.Workspace) (Instance, bool) {
	data, err := os.ReadFile(ws.ServeState())
	if err != nil {
		return Instance{}, false
	}
	var in Instance
	if json.Unmarshal(data, &in) != nil || in.URL == "" {
		return Instance{}, false
	}
	if host, _ := os.Hostname(); in.Host != host {
		return Instance{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), instanceWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.URL+"api/instance", nil)
	if err != nil {
		return Instance{}, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Instance{}, false
	}
	defer resp.Body.Close()
	var live Instance
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&live) != nil || !workspace.SamePlace(live.Workspace, ws.Root) {
		return Instance{}, false
	}
	return in, true
}

// RecordInstance writes serve.json for a server at url; the returned
// function removes it again, unless another server has replaced it.
func RecordInstance(ws *workspace.Workspace, url string) (func(), error) {
	host, _ := os.Hostname()
	in := Instance{URL: url, PID: os.Getpid(), Host: host, Workspace: ws.Root}
	data, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	if err := workspace.WriteFileAtomic(ws.ServeState(), append(data, '\n')); err != nil {
		return nil, fmt.Errorf("web: record the server: %w", err)
	}
	return func() {
		data, err := os.ReadFile(ws.ServeState())
		var now Instance
		if err == nil && json.Unmarshal(data, &now) == nil && now.PID == in.PID && now.URL == in.URL {
			if err := os.Remove(ws.ServeState()); err != nil && !errors.Is(err, os.ErrNotExist) {
				return // left for the next server to overwrite
			}
		}
	}, nil
}

// handleInstance answers GET /api/instance: who this server is, for the
// liveness check of a second `fumibako serve`.
func (s *Server) handleInstance(w http.ResponseWriter, r *http.Request) {
	host, _ := os.Hostname()
	writeJSON(w, http.StatusOK, Instance{PID: os.Getpid(), Host: host, Workspace: s.ws.Root})
}
