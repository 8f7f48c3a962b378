package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/workspace"
)

// env is a workspace with one registered root (index 営業) served by a
// test server on 127.0.0.1.
type env struct {
	t      testing.TB
	ws     *workspace.Workspace
	root   string // the crawl root of 営業
	srv    *web.Server
	ts     *httptest.Server
	opened *openRecorder
}

// openRecorder replaces the desktop opener: it records the path of each
// file opened (a folder shown as its folder's path) and each target.
type openRecorder struct {
	mu      sync.Mutex
	paths   []string
	targets []desktop.Target
}

func (o *openRecorder) Open(t desktop.Target) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.paths = append(o.paths, t.Path)
	o.targets = append(o.targets, t)
	return "", nil
}

func (o *openRecorder) OpenFolder(file string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.paths = append(o.paths, filepath.Dir(file))
	return nil
}

func (o *openRecorder) gotTargets() []desktop.Target {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]desktop.Target(nil), o.targets...)
}

func (o *openRecorder) got() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.paths...)
}

// newEnv makes the workspace, registers the root and starts the server.
// exe is the worker executable ("" when the test runs no indexing).
func newEnv(t testing.TB, exe string) *env {
	t.Helper()
	return newEnvWith(t, exe, true, 1)
}

// newEnvWith is newEnv with a choice: register the root or not, and the
// number of worker processes (0 = number of CPUs).
func newEnvWith(t testing.TB, exe string, register bool, workers int) *env {
	t.Helper()
	base := t.TempDir()
	e := &env{t: t, root: filepath.Join(base, "共有", "営業"), opened: &openRecorder{}}
	if err := os.MkdirAll(e.root, 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	e.ws = ws
	if register {
		s := &workspace.Settings{}
		if _, err := s.AddRoot(e.root, "営業", ws.Root, nil); err != nil {
			t.Fatal(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.srv, err = web.New(web.Options{Workspace: ws, Addr: ln.Addr().String(), Desktop: e.opened,
		WorkerExe: exe, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	e.ts = httptest.NewUnstartedServer(e.srv.Handler())
	e.ts.Listener.Close()
	e.ts.Listener = ln
	e.ts.Start()
	t.Cleanup(func() {
		// Shutdown stops a run and ends the event streams a browser may
		// still hold, so that Close does not wait for them.
		e.srv.StopRun(true)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		e.srv.Shutdown(ctx)
		e.ts.CloseClientConnections()
		e.ts.Close()
	})
	return e
}

func (e *env) url(path string) string { return e.ts.URL + path }

// write creates a source file under the root.
func (e *env) write(rel string, data []byte) string {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// publish puts one file's places into the body index, as an indexing run
// would (per-file folder, then the folder's publish).
func (e *env) publish(rel string, places ...extract.Place) {
	e.t.Helper()
	key := `営業\` + strings.ReplaceAll(rel, "/", `\`)
	if _, err := content.WriteFolder(content.Dir(e.ws.ContentRoot(), key), places); err != nil {
		e.t.Fatal(err)
	}
	if err := bodyindex.Publish(content.Dir(e.ws.ContentRoot(), content.FolderOf(key)), nil); err != nil {
		e.t.Fatal(err)
	}
}

// do sends a request; post requests carry the token unless token is "-".
func (e *env) do(method, path, body string, hdr map[string]string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url(path), strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(web.TokenHeader, e.srv.Token())
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func (e *env) post(path string, v any) (*http.Response, map[string]any) {
	e.t.Helper()
	data, _ := json.Marshal(v)
	resp := e.do(http.MethodPost, path, string(data), nil)
	return resp, decode(e.t, resp)
}

func (e *env) getJSON(path string, v any) {
	e.t.Helper()
	resp := e.do(http.MethodGet, path, "", nil)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
}

func decode(t testing.TB, resp *http.Response) map[string]any {
	t.Helper()
	data, _ := io.ReadAll(resp.Body)
	m := map[string]any{}
	json.Unmarshal(data, &m)
	return m
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// fumibakoBinary builds cmd/fumibako once: the indexing run's worker
// processes are `<binary> __worker`. It is built with -tags testhooks, so
// that a test can hold a file in its worker (FUMIBAKO_TEST_FAULT "gate",
// package worker); without those variables it runs as a release build.
func fumibakoBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fumibako-web-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "fumibako")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := testcorpus.GoBuild("build", "-tags", "testhooks", "-o", binPath, "../../cmd/fumibako")
		if err != nil {
			binErr = fmt.Errorf("build fumibako: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}
