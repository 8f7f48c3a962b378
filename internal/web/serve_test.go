package web_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/web"
)

// TestServeCommand runs `fumibako serve`: it prints the URL, serves the
// page on 127.0.0.1, refuses a foreign Host, and ends on Ctrl-C.
func TestServeCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fumibako")
	}
	if runtime.GOOS == "windows" {
		t.Skip("sends SIGINT")
	}
	bin := fumibakoBinary(t)
	ws := filepath.Join(t.TempDir(), "ws")
	cmd := exec.Command(bin, "--workspace", ws, "serve", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the URL line: %v", err)
	}
	m := regexp.MustCompile(`^fumibako の画面: (http://127\.0\.0\.1:[0-9]+/)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line = %q", line)
	}
	go io.Copy(io.Discard, out)
	resp, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<meta name="fumibako-token" content="`) {
		t.Errorf("GET / = %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, m[1]+"api/state", nil)
	req.Host = "evil.example" + m[1][strings.LastIndexByte(m[1][:len(m[1])-1], ':'):len(m[1])-1]
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Errorf("foreign Host: %v", err)
	} else if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host = %d, want 403", resp.StatusCode)
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after Ctrl-C: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not end after Ctrl-C")
	}
}

// TestNoRunAfterShutdown: once Shutdown has begun, a start that comes in
// (a page still open) is refused; a run started then would outlive the
// server that stopped and waited for the last one.
func TestNoRunAfterShutdown(t *testing.T) {
	e := newEnv(t, "")
	e.write("a.txt", []byte("あ"))
	if err := e.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if resp, m := e.post("/api/run/start", map[string]any{}); resp.StatusCode == http.StatusOK {
		t.Errorf("start after Shutdown = %d %v", resp.StatusCode, m)
	}
	var st web.StateView
	e.getJSON("/api/state", &st)
	if st.Run.Running {
		t.Errorf("a run started after Shutdown: %+v", st.Run)
	}
}
