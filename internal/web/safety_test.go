package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// stateChanging lists every POST endpoint.
var stateChanging = []string{
	"/api/folders/add", "/api/folders/rename", "/api/folders/enable", "/api/folders/remove",
	"/api/run/start", "/api/run/confirm", "/api/run/stop", "/api/open", "/api/open/mode", "/api/export", "/api/source",
}

func TestForeignHostRefused(t *testing.T) {
	e := newEnv(t, "")
	port := e.ts.Listener.Addr().String()
	port = port[strings.LastIndexByte(port, ':')+1:]
	tests := []struct {
		name, host string
		want       int
	}{
		{"server address", "127.0.0.1:" + port, http.StatusOK},
		{"localhost", "localhost:" + port, http.StatusOK},
		{"ipv6 loopback", "[::1]:" + port, http.StatusOK},
		{"rebinding name", "evil.example:" + port, http.StatusForbidden},
		{"name that starts like localhost", "localhost.evil.example:" + port, http.StatusForbidden},
		{"other port", "127.0.0.1:1", http.StatusForbidden},
		{"no port", "127.0.0.1", http.StatusForbidden},
		{"lan address on a loopback server", "192.168.1.10:" + port, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{"/", "/api/state", "/assets/app.js"} {
				resp := e.do(http.MethodGet, path, "", map[string]string{"Host": tt.host})
				if resp.StatusCode != tt.want {
					t.Errorf("GET %s with Host %q = %d, want %d", path, tt.host, resp.StatusCode, tt.want)
				}
			}
			resp := e.do(http.MethodPost, "/api/folders/enable", `{"name":"営業","enabled":true}`, map[string]string{"Host": tt.host})
			if resp.StatusCode != tt.want {
				t.Errorf("POST with Host %q = %d, want %d", tt.host, resp.StatusCode, tt.want)
			}
		})
	}
}

func TestForeignOriginRefused(t *testing.T) {
	e := newEnv(t, "")
	self := "http://" + e.ts.Listener.Addr().String()
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"own origin", map[string]string{"Origin": self}, http.StatusOK},
		{"no origin (curl)", nil, http.StatusOK},
		{"other site", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"other port", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"https variant", map[string]string{"Origin": "https://" + e.ts.Listener.Addr().String()}, http.StatusForbidden},
		{"opaque origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"same-site fetch (other port)", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"same-origin fetch", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": self}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := e.do(http.MethodPost, "/api/folders/enable", `{"name":"営業","enabled":true}`, tt.hdr)
			if resp.StatusCode != tt.want {
				t.Errorf("POST = %d, want %d (%v)", resp.StatusCode, tt.want, decode(t, resp))
			}
			resp = e.do(http.MethodGet, "/api/state", "", tt.hdr)
			if resp.StatusCode != tt.want {
				t.Errorf("GET /api/state = %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestMissingTokenRefused(t *testing.T) {
	e := newEnv(t, "")
	before, _ := os.ReadFile(e.ws.SettingsPath())
	for _, path := range stateChanging {
		tests := []struct {
			name string
			hdr  map[string]string
			want int
		}{
			{"no token", map[string]string{"X-Fumibako-Token": ""}, http.StatusForbidden},
			{"wrong token", map[string]string{"X-Fumibako-Token": strings.Repeat("0", 64)}, http.StatusForbidden},
			{"form body", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
			{"text body", map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		}
		for _, tt := range tests {
			t.Run(path+"/"+tt.name, func(t *testing.T) {
				resp := e.do(http.MethodPost, path, `{"name":"営業","enabled":false,"path":"/tmp"}`, tt.hdr)
				if resp.StatusCode != tt.want {
					t.Errorf("POST %s = %d, want %d", path, resp.StatusCode, tt.want)
				}
			})
		}
	}
	after, _ := os.ReadFile(e.ws.SettingsPath())
	if string(before) != string(after) {
		t.Errorf("settings changed by refused requests:\n%s\n→\n%s", before, after)
	}
	if got := e.opened.got(); len(got) != 0 {
		t.Errorf("opened %v", got)
	}
}

func TestGetOnStateChangingRefused(t *testing.T) {
	e := newEnv(t, "")
	for _, path := range stateChanging {
		for _, method := range []string{http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete} {
			resp := e.do(method, path+"?name=営業&enabled=false", "", nil)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s = %d, want 405", method, path, resp.StatusCode)
			}
		}
	}
}

func TestPageCarriesToken(t *testing.T) {
	e := newEnv(t, "")
	resp := e.do(http.MethodGet, "/", "", nil)
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`<meta name="fumibako-token" content="([0-9a-f]{64})">`).FindSubmatch(body)
	if m == nil || string(m[1]) != e.srv.Token() {
		t.Fatalf("page has no session token meta tag")
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	if got := resp.Header.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("X-Frame-Options = %q", got)
	}
	// The page references nothing outside the server.
	if regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).Match(body) {
		t.Errorf("page refers to an external resource")
	}
}

func TestPathTraversalRefused(t *testing.T) {
	e := newEnv(t, "")
	e.write("見積.xlsx", []byte("ok"))
	e.write("sub/メモ.txt", []byte("memo"))
	outside := filepath.Join(filepath.Dir(e.root), "secret.txt")
	os.WriteFile(outside, []byte("TOPSECRET-CONTENT"), 0o644)
	os.MkdirAll(filepath.Join(filepath.Dir(e.root), "外"), 0o755)
	os.WriteFile(filepath.Join(filepath.Dir(e.root), "外", "y.txt"), []byte("TOPSECRET-CONTENT"), 0o644)
	if err := os.Symlink(outside, filepath.Join(e.root, "link.txt")); err != nil {
		t.Skip("symbolic links not available:", err)
	}
	os.Symlink(filepath.Join(filepath.Dir(e.root), "外"), filepath.Join(e.root, "dirlink"))
	os.Symlink(filepath.Join(e.root, "見積.xlsx"), filepath.Join(e.root, "inside-link.xlsx"))

	e.write("未登録.xlsx", []byte("not in the ingest list"))
	var rows []ingestlist.Row
	for _, rel := range []string{`営業\見積.xlsx`, `営業\sub\メモ.txt`, `営業\inside-link.xlsx`, `営業\ない.xlsx`, `営業\sub`,
		`営業\link.txt`, `営業\dirlink\y.txt`} {
		rows = append(rows, ingestlist.Row{RelPath: rel, Updated: "2024/01/01 00:00:00", State: ingestlist.Done, IngestedAt: "2024/01/01 00:00:00"})
	}
	if err := ingestlist.WriteFile(e.ws.IngestList(), []ingestlist.Folder{{Path: e.root, Name: "営業"}}, rows); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       int
	}{
		{"file", `営業\見積.xlsx`, http.StatusOK},
		{"file not in the ingest list", `営業\未登録.xlsx`, http.StatusNotFound},
		{"file in a folder", `営業\sub\メモ.txt`, http.StatusOK},
		{"link inside the root", `営業\inside-link.xlsx`, http.StatusOK},
		{"dot dot", `営業\..\secret.txt`, http.StatusBadRequest},
		{"dot dot twice", `営業\..\..\..\etc\passwd`, http.StatusBadRequest},
		{"dot dot inside", `営業\sub\..\..\secret.txt`, http.StatusBadRequest},
		{"slash separators", `営業/../secret.txt`, http.StatusBadRequest},
		{"index dot dot", `..\secret.txt`, http.StatusBadRequest},
		{"absolute", `/etc/passwd`, http.StatusBadRequest},
		{"index only", `営業`, http.StatusBadRequest},
		{"empty", ``, http.StatusBadRequest},
		{"control character", "営業\\a\x00b.txt", http.StatusBadRequest},
		{"unknown index", `経理\見積.xlsx`, http.StatusNotFound},
		{"missing file", `営業\ない.xlsx`, http.StatusNotFound},
		{"folder", `営業\sub`, http.StatusNotFound},
		{"link to a file outside", `営業\link.txt`, http.StatusForbidden},
		{"link to a folder outside", `営業\dirlink\y.txt`, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := e.do(http.MethodGet, "/api/file?path="+url.QueryEscape(tt.path), "", nil)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want {
				t.Errorf("GET /api/file %q = %d, want %d (%s)", tt.path, resp.StatusCode, tt.want, body)
			}
			if strings.Contains(string(body), "TOPSECRET-CONTENT") {
				t.Errorf("GET /api/file %q gave the outside file", tt.path)
			}
			if tt.want == http.StatusOK {
				if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
					t.Errorf("Content-Disposition = %q", cd)
				}
			}
			n := len(e.opened.got())
			resp, _ = e.post("/api/open", map[string]any{"path": tt.path})
			if resp.StatusCode != tt.want {
				t.Errorf("POST /api/open %q = %d, want %d", tt.path, resp.StatusCode, tt.want)
			}
			if tt.want != http.StatusOK && len(e.opened.got()) != n {
				t.Errorf("POST /api/open %q opened %v", tt.path, e.opened.got()[n:])
			}
			resp = e.do(http.MethodGet, "/api/preview?place=x&row=1&path="+url.QueryEscape(tt.path), "", nil)
			if tt.want == http.StatusBadRequest && resp.StatusCode != http.StatusBadRequest {
				t.Errorf("GET /api/preview %q = %d, want 400", tt.path, resp.StatusCode)
			}
		})
	}
	root, _ := filepath.EvalSymlinks(e.root)
	for _, p := range e.opened.got() {
		if !strings.HasPrefix(p, root) {
			t.Errorf("opened %s outside %s", p, e.root)
		}
	}
}

// TestOpenOnlyFromThisMachine: a request from another address may
// download, but never makes the server start a program.
func TestOpenOnlyFromThisMachine(t *testing.T) {
	e := newEnv(t, "")
	e.write("見積.xlsx", []byte("ok"))
	row := ingestlist.Row{RelPath: `営業\見積.xlsx`, Updated: "2024/01/01 00:00:00", State: ingestlist.Done}
	if err := ingestlist.WriteFile(e.ws.IngestList(), nil, []ingestlist.Row{row}); err != nil {
		t.Fatal(err)
	}
	h := e.srv.Handler()
	for _, remote := range []string{"192.168.1.5:50000", "[fe80::1]:50000"} {
		req := httptest.NewRequest(http.MethodPost, "/api/open", strings.NewReader(`{"path":"営業\\見積.xlsx"}`))
		req.Host = e.ts.Listener.Addr().String()
		req.RemoteAddr = remote
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Fumibako-Token", e.srv.Token())
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "このパソコンで開いているブラウザからだけ") {
			t.Errorf("open from %s = %d %s, want 403 with the message", remote, rec.Code, rec.Body)
		}
	}
	if got := e.opened.got(); len(got) != 0 {
		t.Errorf("opened %v", got)
	}
	resp, m := e.post("/api/open", map[string]any{"path": `営業\見積.xlsx`, "folder": true})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("open folder from 127.0.0.1 = %d %v", resp.StatusCode, m)
	}
	root, _ := filepath.EvalSymlinks(e.root)
	if got := e.opened.got(); len(got) != 1 || got[0] != root {
		t.Errorf("opened %v, want [%s]", got, root)
	}
}
