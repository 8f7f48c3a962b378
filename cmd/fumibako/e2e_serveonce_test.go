package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServe starts `fumibako serve` and returns it with the URL it
// prints.
func startServe(t *testing.T, f *fixture) (*exec.Cmd, string) {
	t.Helper()
	cmd := f.cmd("serve", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "fumibako の画面: http") {
		t.Fatalf("serve: URL line %q, %v", line, err)
	}
	go io.Copy(io.Discard, out)
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "fumibako の画面: "))
}

// TestServeSingleInstance (issue 32): a second `serve --open` on the same
// workspace opens the running server's page and ends, instead of starting
// another server; a killed server's record is not trusted, and a server
// that ends removes its record.
func TestServeSingleInstance(t *testing.T) {
	f := newFixture(t)
	opened := filepath.Join(t.TempDir(), "opened.txt")
	f.env = append(f.env, "FUMIBAKO_TEST_OPENED="+opened)
	first, url := startServe(t, f)

	out, errOut, code := f.run("serve", "--open", "--addr", "127.0.0.1:0")
	if code != 0 || out != "fumibako の画面はすでに開いています: "+url+"\n" {
		t.Fatalf("second serve: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if got, _ := os.ReadFile(opened); string(got) != url+"\n" {
		t.Errorf("second serve opened %q, want %q", got, url)
	}

	// Killed: its record stays, but names no live server.
	first.Process.Kill()
	first.Wait()
	if _, err := os.Stat(filepath.Join(f.ws, "work", "serve.json")); err != nil {
		t.Fatalf("serve.json after a kill: %v", err)
	}
	second, url2 := startServe(t, f)
	if url2 == "" {
		t.Fatal("no second server after the first was killed")
	}
	// Ended by Ctrl-C: the record goes.
	second.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not end on an interrupt")
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "serve.json")); !os.IsNotExist(err) {
		t.Errorf("serve.json after the server ended: %v", err)
	}
}
