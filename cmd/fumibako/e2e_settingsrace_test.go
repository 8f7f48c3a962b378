package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/workspace"
)

// settingsRaceSeconds is how long TestIssue36SettingsRace keeps its
// writers and readers busy: FUMIBAKO_SETTINGS_RACE_SECONDS (the issue's
// probe ran 30), else 5.
func settingsRaceSeconds(t *testing.T) time.Duration {
	return testutil.Duration(t, "FUMIBAKO_SETTINGS_RACE_SECONDS", 5*time.Second)
}

// raceLog collects what the racing clients saw.
type raceLog struct {
	mu       sync.Mutex
	added    map[string]string // path → who reported adding it
	refused  []string          // refusals with their message (not losses)
	problems []string          // what must never happen
	reads    atomic.Int64
}

func (l *raceLog) add(path, who string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.added[path] = who
}

func (l *raceLog) refuse(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refused = append(l.refused, fmt.Sprintf(format, a...))
}

func (l *raceLog) problem(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.problems) < 20 {
		l.problems = append(l.problems, fmt.Sprintf(format, a...))
	}
}

// TestIssue36SettingsRace reproduces the probe of issue 36 item 2: CLI
// `folder add` processes and the web UI's POST /api/folders/add race,
// while CLI `folder list` and GET /api/state read. Every add reported as
// done is in the final settings.json, no client sees 予期しないエラー or a
// broken-settings notice, and nothing is moved aside as broken.
func TestIssue36SettingsRace(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root)
	ws, err := workspace.Open(f.ws)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Options{Workspace: ws, Addr: ln.Addr().String(), Desktop: nopOpener{}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		ts.Close()
	}()

	base := filepath.Join(filepath.Dir(f.root), "追加")
	var seq atomic.Int64
	newFolder := func(who string) string {
		p := filepath.Join(base, fmt.Sprintf("%s-%03d", who, seq.Add(1)))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Error(err)
		}
		return p
	}
	log := &raceLog{added: map[string]string{}}
	bad := func(who, text string) {
		if strings.Contains(text, "予期しないエラー") || strings.Contains(text, "設定ファイルが壊れていた") {
			log.problem("%s: %s", who, text)
		}
	}
	post := func(path string, body any) (int, string) {
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, ts.URL+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(web.TokenHeader, srv.Token())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	cli := func(args ...string) (string, string, int) {
		out, errOut, code, err := runCmd(f.cmd(args...))
		if err != nil {
			code = -1
		}
		return out, errOut, code
	}

	deadline := time.Now().Add(settingsRaceSeconds(t))
	var wg sync.WaitGroup
	clients := []func(who string){
		func(who string) { // CLI folder add
			p := newFolder(who)
			out, errOut, code := cli("folder", "add", p)
			bad(who, out+errOut)
			switch {
			case code == 0 && strings.Contains(out, "インデックスを追加しました"):
				log.add(p, who)
			case code == 0:
				log.problem("%s: exit 0 without the added message: %q %q", who, out, errOut)
			default:
				log.refuse("%s: exit %d %s", who, code, errOut)
			}
		},
		func(who string) { // web folder add
			p := newFolder(who)
			code, body := post("/api/folders/add", map[string]string{"path": p})
			bad(who, body)
			switch code {
			case http.StatusOK:
				log.add(p, who)
			case http.StatusInternalServerError, 0:
				log.problem("%s: %d %s", who, code, body)
			default:
				log.refuse("%s: %d %s", who, code, body)
			}
		},
		func(who string) { // CLI folder list
			out, errOut, code := cli("folder", "list", "--json")
			bad(who, out+errOut)
			if code != 0 {
				log.problem("%s: folder list exit %d %s", who, code, errOut)
			}
			log.reads.Add(1)
		},
		func(who string) { // web state
			resp, err := http.Get(ts.URL + "/api/state")
			if err != nil {
				log.problem("%s: %v", who, err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			bad(who, string(body))
			if resp.StatusCode != http.StatusOK {
				log.problem("%s: state %d %s", who, resp.StatusCode, body)
			}
			log.reads.Add(1)
		},
	}
	names := []string{"cli", "web", "list", "state"}
	for i, c := range clients {
		for n := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				who := fmt.Sprintf("%s%d", names[i], n)
				for time.Now().Before(deadline) {
					c(who)
				}
			}()
		}
	}
	wg.Wait()

	data, err := os.ReadFile(ws.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	s, err := workspace.ParseSettings(data)
	if err != nil {
		t.Fatalf("final settings.json does not parse: %v\n%s", err, data)
	}
	have := map[string]bool{}
	for _, r := range s.Roots {
		have[r.Path] = true
	}
	lost := 0
	for p, who := range log.added {
		if !have[p] {
			lost++
			t.Errorf("%s reported adding %s, which is not in settings.json", who, p)
		}
	}
	for _, p := range log.problems {
		t.Error(p)
	}
	if m, _ := filepath.Glob(ws.SettingsPath() + ".broken-*"); len(m) > 0 {
		t.Errorf("settings moved aside as broken: %v", m)
	}
	if m, _ := filepath.Glob(ws.SettingsPath() + "*.tmp"); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
	if len(log.added) == 0 {
		t.Errorf("no add succeeded")
	}
	t.Logf("%d adds reported, %d lost, %d in settings.json, %d refused, %d reads", len(log.added), lost, len(s.Roots), len(log.refused), log.reads.Load())
	for i, r := range log.refused {
		if i == 5 {
			break
		}
		t.Logf("refused: %s", r)
	}
}

// nopOpener opens nothing.
type nopOpener struct{}

func (nopOpener) Open(desktop.Target) (string, error) { return "", nil }
func (nopOpener) OpenFolder(string) error             { return nil }
