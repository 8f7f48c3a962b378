package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/term"

	"github.com/fumibako/fumibako/internal/share"
	"github.com/fumibako/fumibako/internal/workspace"
)

func init() {
	register(&command{name: "export", args: "インデックス名 --out ファイル.zip", summary: "インデックスを 1 つ zip ファイルに書き出す（ほかの PC で検索できるように）", order: 55,
		about: `インデックスの中身（本文インデックスと取り込み一覧の行）と、ファイルごとの大きさ・SHA-256 を書いた目録を zip ファイルに書き出します。
元のファイルは含みません。インデックス作成の実行中は書き出せません。`,
		examples: []string{"fumibako export 営業 --out 営業.zip"},
		minArgs:  1, maxArgs: 1, setup: setupExport})
	register(&command{name: "import", args: "ファイル.zip [--name 新しい名前] [--overwrite]", summary: "エクスポートした zip ファイルのインデックスを取り込んで検索できるようにする", order: 56,
		about: `zip ファイルの中身をすべて確かめてから（名前・大きさ・SHA-256・空き容量）、インデックスとして登録します。
取り込んだインデックスはすぐに検索できます。元のフォルダは登録しないため、インデックス作成では取り込み直しません。
同じ名前のインデックスがあるときは --name で別の名前にするか、--overwrite で置き換えます。`,
		examples: []string{"fumibako import 営業.zip", "fumibako import 営業.zip --name 営業（本社）", "fumibako import 営業.zip --overwrite"},
		minArgs:  1, maxArgs: 1, setup: setupImport})
}

// Messages of export and import (package share holds the refusals).
const (
	msgExportNoOut   = "書き出す zip ファイルを --out で指定してください。"
	msgExportExists  = "%s は既にあります。別の名前を指定してください。"
	msgExportDone    = "インデックス「%s」を %s に書き出しました（ファイル %d 件、%s）。"
	msgImportDone    = "インデックス「%s」を取り込みました（ファイル %d 件、%s）。すぐに検索できます。"
	msgImportSource  = "元のフォルダ: %s（インデックス作成では取り込み直しません）"
	msgImportClash   = "別の名前で取り込むには --name 新しい名前、置き換えるには --overwrite を付けて、もう一度実行してください。"
	msgExportWriting = "書き出しています"
	msgImportReading = "確かめて取り込んでいます"
	msgImportMissing = "ファイルが見つかりません: %s"
)

func setupExport(fs *flag.FlagSet) func(*env, []string) error {
	out := fs.String("out", "", "書き出す `zip ファイル`")
	return func(e *env, args []string) error {
		if *out == "" {
			return usagef("export", msgExportNoOut)
		}
		ws, err := e.workspace()
		if err != nil {
			return err
		}
		abs, err := filepath.Abs(*out)
		if err != nil {
			return &fatalError{msg: fmt.Sprintf(msgExportFailed, *out), cause: err}
		}
		if _, err := os.Lstat(abs); err == nil {
			return fatalf(msgExportExists, abs)
		}
		if workspace.IsWithin(abs, ws.Root) {
			return fatalf(msgExportFailed, abs)
		}
		// The zip is written under a temporary name and renamed when it
		// is whole: a killed export leaves no zip that looks complete.
		f, err := workspace.CreateAtomic(abs)
		if err != nil {
			return &fatalError{msg: fmt.Sprintf(msgExportFailed, abs), cause: err}
		}
		bar := newByteBar(e.stderr, msgExportWriting)
		res, err := share.Export(ws, args[0], f, share.ExportOptions{AppVersion: version, Progress: bar.show})
		bar.end()
		if err != nil {
			f.Abort()
			return err
		}
		if err := f.Commit(); err != nil {
			return &fatalError{msg: fmt.Sprintf(msgExportFailed, abs), cause: err}
		}
		fmt.Fprintf(e.stdout, msgExportDone+"\n", res.Name, abs, res.Files, byteText(res.Bytes))
		return nil
	}
}

func setupImport(fs *flag.FlagSet) func(*env, []string) error {
	name := fs.String("name", "", "取り込むインデックスの`名前`（既定: zip ファイルに書かれた名前）")
	overwrite := fs.Bool("overwrite", false, "同じ名前のインデックスを置き換える")
	return func(e *env, args []string) error {
		ws, err := e.workspace()
		if err != nil {
			return err
		}
		if st, err := os.Stat(args[0]); err != nil || st.IsDir() {
			return fatalf(msgImportMissing, args[0])
		}
		bar := newByteBar(e.stderr, msgImportReading)
		res, err := share.Import(ws, args[0], share.ImportOptions{Name: *name, Overwrite: *overwrite, Progress: bar.show,
			Log: func(line string) { fmt.Fprintln(e.stderr, line) }})
		bar.end()
		var clash *share.ClashError
		if errors.As(err, &clash) {
			return fatalf("%s%s", clash.Error(), msgImportClash)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, msgImportDone+"\n", res.Name, res.Rows, byteText(res.Bytes))
		if res.SourceFolder != "" {
			fmt.Fprintf(e.stdout, msgImportSource+"\n", res.SourceFolder)
		}
		return nil
	}
}

// byteBar shows the progress of an export or import on a terminal: one
// line, redrawn at most ten times a second; elsewhere nothing (the final
// line says what was done).
type byteBar struct {
	w     io.Writer
	label string
	tty   bool
	last  time.Time
	drawn bool
}

func newByteBar(w io.Writer, label string) *byteBar {
	b := &byteBar{w: w, label: label}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b.tty = true
	}
	return b
}

func (b *byteBar) show(done, total int64) {
	if !b.tty || time.Since(b.last) < 100*time.Millisecond && done < total {
		return
	}
	b.last = time.Now()
	pct := 100
	if total > 0 {
		pct = int(done * 100 / total)
	}
	fmt.Fprintf(b.w, "\r%s… %3d%%（%s / %s）", b.label, pct, byteText(done), byteText(total))
	b.drawn = true
}

func (b *byteBar) end() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}

// byteText shows a size in KB, MB or GB.
func byteText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%d KB", (n+1023)/1024)
	}
}
