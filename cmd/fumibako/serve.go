package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fumibako/fumibako/internal/web"
)

func init() {
	commands["serve"] = &command{summary: "web UI for search and index management [--addr 127.0.0.1:0] [--open]", run: runServe}
}

// shutdownWait bounds how long Ctrl-C waits for a running indexing run to
// stop before the server closes anyway (a second Ctrl-C kills at once).
const shutdownWait = 60 * time.Second

func runServe(e *env, args []string) int {
	fs := newFlags(e, "serve")
	addr := fs.String("addr", "127.0.0.1:0", "listen address host:port (port 0: any free port)")
	open := fs.Bool("open", false, "open the UI in the default browser")
	workers := fs.Int("workers", 0, "worker processes for indexing (default: settings, then number of CPUs)")
	timeout := fs.Duration("file-timeout", 0, "per-file deadline for indexing (default: settings, then 10m)")
	if pos, err := parseInterspersed(fs, args); err != nil || len(pos) != 0 {
		return exitUsage
	}
	ws, err := e.workspace()
	if err != nil {
		return e.fail(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return e.fail(err)
	}
	srv, err := web.New(web.Options{Workspace: ws, WorkerExe: exe, Workers: *workers, FileTimeout: *timeout})
	if err != nil {
		return e.fail(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return e.fail(fmt.Errorf("serve: listen on %s: %w", *addr, err))
	}
	url := web.URLFor(ln.Addr())
	fmt.Fprintf(e.stdout, "fumibako の画面: %s\n", url)
	fmt.Fprintln(e.stdout, "（このウィンドウで Ctrl-C を押すと終了します）")
	if !web.IsLoopback(ln.Addr()) {
		fmt.Fprintln(e.stderr, "注意: 127.0.0.1 以外でも待ち受けています。同じネットワークのほかのパソコンからも検索できます（元のファイルを開く操作は、このパソコンのブラウザからだけできます）。")
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if *open {
		if err := web.OpenURL(url); err != nil {
			fmt.Fprintf(e.stderr, "ブラウザを開けませんでした（%v）。%s を開いてください。\n", err, url)
		}
	}
	select {
	case err := <-served:
		if err != nil {
			return e.fail(err)
		}
		return exitOK
	case <-sig:
	}
	// First Ctrl-C: stop a running indexing run (as the stop button does)
	// and close; a second one kills the files in flight.
	go func() {
		<-sig
		srv.StopRun(true)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return e.fail(err)
	}
	return exitOK
}
