package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fumibako/fumibako/internal/web"
)

func init() {
	register(&command{name: "serve", args: "[オプション]", summary: "ブラウザで使う画面（検索とインデックスの管理）を開く", order: 60,
		about: `このパソコンだけから使える画面を http://127.0.0.1:<ポート>/ で開きます。表示されたアドレスをブラウザで開いてください。
Ctrl-C で終了します（インデックス作成の途中なら、中止してから終了します）。`,
		examples: []string{"fumibako serve --open", "fumibako serve --addr 127.0.0.1:8080"},
		setup:    setupServe})
}

// Messages of the single server per workspace (issue 32).
const (
	msgServeRunning     = "fumibako の画面はすでに開いています: %s"
	msgServeNotRecorded = "注意: 画面のアドレスをワークスペースに記録できませんでした。もう一度 fumibako serve を実行すると、2 つ目の画面が開きます。"
)

// shutdownWait bounds how long Ctrl-C waits for a running indexing run to
// stop before the server closes anyway (a second Ctrl-C kills at once).
const shutdownWait = 60 * time.Second

func setupServe(fs *flag.FlagSet) func(*env, []string) error {
	addr := fs.String("addr", "127.0.0.1:0", "待ち受ける`アドレス:ポート`（ポート 0: 空いているポート）")
	open := fs.Bool("open", false, "既定のブラウザで画面を開く")
	workers := fs.Int("workers", 0, "インデックス作成で並べて取り込む`プロセス数`（既定: 設定、なければ CPU の数）")
	timeout := fs.Duration("file-timeout", 0, "インデックス作成で 1 ファイルにかけてよい`時間`（既定: 設定、なければ 10 分）")
	return func(e *env, args []string) error {
		return serve(e, *addr, *open, *workers, *timeout)
	}
}

func serve(e *env, addr string, open bool, workers int, timeout time.Duration) error {
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// One server per workspace (issue 32): a second serve opens the
	// running one's page.
	if in, ok := web.RunningInstance(ws); ok {
		fmt.Fprintf(e.stdout, msgServeRunning+"\n", in.URL)
		if open {
			if err := openURL(ws.TmpRoot(), in.URL); err != nil {
				fmt.Fprintf(e.stderr, "ブラウザを開けませんでした。%s を開いてください。\n", in.URL)
			}
		}
		return nil
	}
	web.Version = version
	srv, err := web.New(web.Options{Workspace: ws, WorkerExe: exe, Workers: workers, FileTimeout: timeout, Desktop: newOpener(ws.TmpRoot())})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &fatalError{msg: fmt.Sprintf(msgListenFailed, addr), cause: err}
	}
	url := web.URLFor(ln.Addr())
	// Signals are taken before the address is shown or recorded, so that
	// a Ctrl-C right after it still removes the record.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if release, err := web.RecordInstance(ws, url); err != nil {
		fmt.Fprintln(e.stderr, msgServeNotRecorded)
		if e.verbose {
			fmt.Fprintln(e.stderr, err)
		}
	} else {
		defer release()
	}
	fmt.Fprintf(e.stdout, "fumibako の画面: %s\n", url)
	fmt.Fprintln(e.stdout, "（このウィンドウで Ctrl-C を押すと終了します）")
	if !web.IsLoopback(ln.Addr()) {
		fmt.Fprintln(e.stderr, "注意: 127.0.0.1 以外でも待ち受けています。同じネットワークのほかのパソコンからも検索できます（元のファイルを開く操作は、このパソコンのブラウザからだけできます）。")
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if open {
		if err := openURL(ws.TmpRoot(), url); err != nil {
			fmt.Fprintf(e.stderr, "ブラウザを開けませんでした。%s を開いてください。\n", url)
		}
	}
	select {
	case err := <-served:
		if err != nil {
			return err
		}
		return nil
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
		return err
	}
	return nil
}
