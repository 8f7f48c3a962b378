package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/web/indexing"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Options configure a Server.
type Options struct {
	// Workspace is the opened workspace the UI shows and indexes.
	Workspace *workspace.Workspace

	// WorkerExe, WorkerArgs and WorkerEnv start the indexing run's worker
	// processes (`<exe> <args...> __worker ...`, indexer.Options); the
	// fumibako binary passes os.Executable().
	WorkerExe  string
	WorkerArgs []string
	WorkerEnv  []string
	// Workers, FileTimeout and MemLimit override the settings (0 = the
	// settings' value, then the indexer's default).
	Workers     int
	FileTimeout time.Duration
	MemLimit    int64

	// Addr is the host:port that browsers use to reach the server. Serve
	// fills it from its listener; a caller that mounts Handler itself sets
	// it. Requests whose Host or Origin names anything else are refused.
	Addr string

	// Desktop opens a hit's file (in an open mode, Excel at its sheet and
	// cell) and shows its folder; nil means desktop.New on the
	// workspace's tmp folder. Tests replace it.
	Desktop Opener
}

// Opener acts on a source file with the desktop's applications (package
// desktop).
type Opener interface {
	Open(desktop.Target) (note string, err error)
	OpenFolder(file string) error
}

// launch is how the server's runs and auto-update start their workers.
func (o Options) launch() indexer.Launch {
	return indexer.Launch{Workers: o.Workers, FileTimeout: o.FileTimeout, MemLimit: o.MemLimit,
		WorkerExe: o.WorkerExe, WorkerArgs: o.WorkerArgs, WorkerEnv: o.WorkerEnv}
}

// Server is the web UI: the embedded pages, the JSON API and the indexing
// run it drives. One Server serves one workspace.
type Server struct {
	opt   Options
	ws    *workspace.Workspace
	token string
	mux   *http.ServeMux

	addrMu sync.RWMutex
	addr   string // host:port of the listener ("" until known)

	run   *indexing.Runner // the one indexing run this server drives
	auto  *indexing.Auto   // 自動で更新する (run.Auto)
	probe source.Prober    // whether the roots answer (index list, opening a hit)
	lists listCache        // the parsed ingest list (listcache.go)
	hs    *http.Server

	expectedMu sync.Mutex  // serialises edits of expected_failures.tsv (settings.json has its own lock)
	otherLock  atomic.Bool // another process held the lock at the last look

	closing   chan struct{} // closed by Shutdown: event streams end
	closeOnce sync.Once
}

// New returns a Server for opt.Workspace with a fresh session token.
func New(opt Options) (*Server, error) {
	if opt.Workspace == nil {
		return nil, errors.New("web: no workspace")
	}
	if opt.Desktop == nil {
		opt.Desktop = desktop.New(opt.Workspace.TmpRoot())
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("web: session token: %w", err)
	}
	s := &Server{opt: opt, ws: opt.Workspace, token: hex.EncodeToString(tok), addr: opt.Addr, closing: make(chan struct{})}
	s.run = indexing.New(s.ws, opt.launch(), func() (*workspace.Settings, error) {
		st, _, err := s.loadSettings()
		return st, err
	})
	s.auto = s.run.Auto
	s.routes()
	return s, nil
}

// Token is the session token every state-changing request must carry in
// the X-Fumibako-Token header (the page gets it in a meta tag).
func (s *Server) Token() string { return s.token }

// Handler returns the server's handler with the safety checks in front.
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

// Serve serves on ln until Shutdown. It records ln's address as the only
// host browsers may name.
func (s *Server) Serve(ln net.Listener) error {
	s.addrMu.Lock()
	if s.addr == "" {
		s.addr = ln.Addr().String()
	}
	// IdleTimeout: a keep-alive connection that a vanished browser left
	// open does not hold its goroutine for ever.
	s.hs = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	hs := s.hs
	s.addrMu.Unlock()
	s.auto.Sync()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// StopRun asks a running indexing run to stop (the stop button); kill
// skips the grace for files in flight (a second Ctrl-C).
func (s *Server) StopRun(kill bool) { s.run.Stop(kill) }

// Shutdown stops a running indexing run (and refuses new ones), waits for
// it to end and closes the HTTP server. Waiting ends early when ctx is
// done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.auto.Close()
	s.run.Close()
	s.run.Wait(ctx)
	s.closeOnce.Do(func() { close(s.closing) })
	s.addrMu.RLock()
	hs := s.hs
	s.addrMu.RUnlock()
	if hs == nil {
		return nil
	}
	return hs.Shutdown(ctx)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.handlePage)
	m.Handle("GET /assets/", assetHandler())
	m.HandleFunc("GET /api/state", s.handleState)
	m.HandleFunc("GET /api/failures", s.handleFailures)
	m.HandleFunc("GET /api/events", s.handleEvents)
	m.HandleFunc("GET /api/log", s.handleLog)
	m.HandleFunc("GET /api/file", s.handleDownload)
	m.HandleFunc("GET /api/indexes", s.handleIndexes)
	m.HandleFunc("GET /api/search", s.handleSearch)
	m.HandleFunc("GET /api/preview", s.handlePreview)
	m.HandleFunc("GET /api/tree", s.handleTree)
	m.HandleFunc("GET /api/index/export", s.handleIndexExport)
	m.HandleFunc("GET /api/settings", s.handleSettings)
	m.HandleFunc("GET /api/instance", s.handleInstance)
	m.HandleFunc("POST /api/index/import", s.handleIndexImport)
	post := map[string]http.HandlerFunc{
		"/api/folders/add":     s.handleFolderAdd,
		"/api/folders/rename":  s.handleFolderRename,
		"/api/folders/enable":  s.handleFolderEnable,
		"/api/folders/ocr":     s.handleFolderOCR,
		"/api/folders/hidden":  s.handleFolderHiddenSheets,
		"/api/folders/remove":  s.handleFolderRemove,
		"/api/run/start":       s.handleRunStart,
		"/api/run/confirm":     s.handleRunConfirm,
		"/api/run/stop":        s.handleRunStop,
		"/api/auto":            s.handleAuto,
		"/api/open":            s.handleOpen,
		"/api/open/mode":       s.handleOpenMode,
		"/api/source":          s.handleSource,
		"/api/export":          s.handleExport,
		"/api/fresh":           s.handleFresh,
		"/api/failures/ignore": s.handleIgnore,
		"/api/excludes":        s.handleExcludes,
		"/api/settings":        s.handleSettingSet,
		"/api/dirs":            s.handleDirs,
	}
	for path, h := range post {
		m.Handle("POST "+path, s.needToken(h))
		// Any other method on a state-changing endpoint is refused, GET
		// included, so no link or image can trigger it.
		m.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, "POST only")
		})
	}
	s.mux = m
}

// apiError is the JSON body of a refused or failed request: Message is
// the Japanese text to show.
type apiError struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, english string) {
	writeJSON(w, code, apiError{Error: english})
}

// writeUserError answers a refused operation with its Japanese text.
func writeUserError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, apiError{Error: "refused", Message: msg})
}

// readJSON decodes a POST body (at most 1 MiB) into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "bad JSON body: "+err.Error())
		return false
	}
	return true
}

// URLFor is the address to open in a browser for a listener: an
// unspecified host (0.0.0.0, ::) is shown as 127.0.0.1.
func URLFor(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// IsLoopback reports whether a listener accepts connections from this
// machine only.
func IsLoopback(addr net.Addr) bool { return isLoopbackAddr(addr.String()) }
