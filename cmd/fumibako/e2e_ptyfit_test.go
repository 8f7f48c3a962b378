//go:build linux || darwin

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/watch"
)

// ansiRe matches the escape sequences the progress display writes.
var ansiRe = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// writtenLines splits what a program wrote to a terminal into the lines it
// wrote (a carriage return starts the line again), escapes removed.
func writtenLines(raw string) []string {
	var out []string
	for _, l := range strings.Split(ansiRe.ReplaceAllString(raw, ""), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		out = append(out, l)
	}
	return out
}

// checkFits fails for every line the program wrote wider than cols: the
// terminal would have wrapped it anywhere (issue 32).
func checkFits(t *testing.T, raw string, cols int) {
	t.Helper()
	for _, l := range writtenLines(raw) {
		if w := displayWidth(l); w > cols {
			t.Errorf("line of %d columns on a terminal of %d: %q", w, cols, l)
		}
	}
}

// ptyRun starts c on a pseudo-terminal of cols columns and copies what it
// writes into a buffer.
type ptyRun struct {
	mu  sync.Mutex
	buf bytes.Buffer
	tty *os.File
	eof chan struct{}
}

func startPty(t *testing.T, c *exec.Cmd, cols int) *ptyRun {
	t.Helper()
	tty, err := pty.StartWithSize(c, &pty.Winsize{Cols: uint16(cols), Rows: 40})
	if err != nil {
		testutil.Unavailable(t, "no pseudo-terminal here: %v", err)
	}
	r := &ptyRun{tty: tty, eof: make(chan struct{})}
	go func() {
		defer close(r.eof)
		b := make([]byte, 4096)
		for {
			n, err := tty.Read(b)
			r.mu.Lock()
			r.buf.Write(b[:n])
			r.mu.Unlock()
			if err != nil {
				if !errors.Is(err, syscall.EIO) && !errors.Is(err, os.ErrClosed) && err != io.EOF {
					t.Errorf("read the terminal: %v", err)
				}
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close() })
	return r
}

func (r *ptyRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// TestIssue32IndexFitsTerminal: `fumibako index` on terminals of 80 and 50
// columns writes no line wider than the terminal: the crawl summary, the
// start lines (no 並べて with one process), failures with long names and
// the closing line are wrapped by the program.
func TestIssue32IndexFitsTerminal(t *testing.T) {
	for _, cols := range []int{80, 50} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			f := newFixture(t)
			dir := "2024年度/見積書/とても長いフォルダの名前/第1四半期"
			for i := 1; i <= 5; i++ {
				f.write(fmt.Sprintf("%s/見積書_%03d_山田商事御中_とても長い名前のファイル.txt", dir, i), fmt.Sprintf("見積 %d\n", i))
			}
			f.write("壊れた表_とても長い名前のファイル_1.xls", "\x00\x01 not a workbook")
			f.mustRun("folder", "add", f.root)
			c := f.cmd("index", "--workers", "1")
			r := startPty(t, c, cols)
			if err := c.Wait(); err != nil {
				t.Fatalf("index: %v", err)
			}
			<-r.eof
			raw := r.text()
			checkFits(t, raw, cols)
			screen := strings.ReplaceAll(strings.Join(writtenLines(raw), ""), " ", "")
			for _, want := range []string{"6件のファイルを取り込みます。", "インデックス作成が完了しました。", "取り込みに失敗しました:"} {
				if !strings.Contains(screen, want) {
					t.Errorf("%q not on the terminal:\n%s", want, raw)
				}
			}
			if strings.Contains(screen, "並べて") {
				t.Errorf("並べて with one process:\n%s", raw)
			}
		})
	}
}

// TestIssue32WatchFitsTerminal: `fumibako watch` on terminals of 80 and 50
// columns says what each change did, one line per change (削除を反映しました
// for a deletion), the file's line before the run's closing line, and a
// closing line on Ctrl-C; no line is wider than the terminal.
func TestIssue32WatchFitsTerminal(t *testing.T) {
	for _, cols := range []int{80, 50} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			f := newFixture(t)
			f.write("残す.txt", "残す")
			f.write("消す_とても長い名前のファイル_山田商事御中.txt", "消す")
			f.mustRun("folder", "add", f.root)
			c := f.cmd("watch", "--workers", "1", "--debounce", "300ms")
			r := startPty(t, c, cols)
			t.Cleanup(func() { c.Process.Kill(); c.Wait() })
			waitWatch(t, "the watcher waits", func() bool { return watchState(f).Doing == watch.DoingWait })
			f.write("新しい_とても長い名前のファイル_山田商事御中.txt", "新しい")
			waitWatch(t, "the new file's line", func() bool { return strings.Contains(r.text(), "取り込みました: ") })
			os.Remove(filepath.Join(f.root, "消す_とても長い名前のファイル_山田商事御中.txt"))
			waitWatch(t, "the deletion's line", func() bool { return strings.Contains(r.text(), "削除を反映しました: ") })
			c.Process.Signal(os.Interrupt)
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			select {
			case <-done:
			case <-time.After(watchBound):
				t.Fatal("watch did not end on Ctrl-C")
			}
			<-r.eof
			raw := r.text()
			checkFits(t, raw, cols)
			flat := strings.ReplaceAll(strings.Join(writtenLines(raw), ""), " ", "")
			if strings.Count(flat, "削除を反映しました:") != 1 || strings.Count(flat, "取り込みました:") != 1 {
				t.Errorf("want one line per change:\n%s", raw)
			}
			if strings.Contains(flat, "取り込みました:営業\\消す") {
				t.Errorf("a deletion told as 取り込みました:\n%s", raw)
			}
			picked := strings.Index(flat, "取り込みました:")
			if done := strings.Index(flat[picked:], "インデックス作成が完了しました。"); done < 0 {
				t.Errorf("the file line is not before the run's closing line:\n%s", raw)
			}
			if !strings.HasSuffix(strings.TrimSpace(strings.Join(writtenLines(raw), "\n")), "監視を終了しました。") {
				t.Errorf("no closing line on Ctrl-C:\n%s", raw)
			}
		})
	}
}
