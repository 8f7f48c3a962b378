//go:build linux || darwin

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestIndexOnTerminal drives `fumibako index` in a pseudo-terminal of 120
// columns and checks the screen it leaves (issue 17): one status line, the
// final one, with every file done; no stale copy of it; every failure line
// there; no line of a file that went well; the last file's name whole.
func TestIndexOnTerminal(t *testing.T) {
	f := newFixture(t)
	dir := "2024年度/見積書/とても長いフォルダの名前/第1四半期"
	const n = 150
	for i := 1; i <= n; i++ {
		f.write(fmt.Sprintf("%s/見積書_%03d_山田商事御中.txt", dir, i), fmt.Sprintf("見積 %d\n", i))
	}
	bad := []string{"壊れた表_1.xls", "壊れた表_2.xls", "壊れた表_3.xls"}
	for _, b := range bad {
		f.write(b, "\x00\x01 not a workbook")
	}
	f.mustRun("folder", "add", f.root)

	c := f.cmd("index", "--workers", "2")
	tty, err := pty.StartWithSize(c, &pty.Winsize{Cols: 120, Rows: 30})
	if err != nil {
		testutil.Unavailable(t, "no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	scr := newScreen(120)
	_, err = io.Copy(scr, tty)
	if err != nil && !errors.Is(err, syscall.EIO) && !errors.Is(err, os.ErrClosed) {
		t.Fatalf("read the terminal: %v", err)
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("index: %v", err)
	}
	lines := scr.text()
	screen := strings.Join(lines, "\n")
	var bars []string
	for _, l := range lines {
		if statusRe.MatchString(l) {
			bars = append(bars, l)
		}
	}
	total := n + len(bad)
	if len(bars) != 1 || !strings.HasPrefix(bars[0], fmt.Sprintf("[####################] %d/%d 件 失敗 %d", total, total, len(bad))) {
		t.Fatalf("status lines %q, want one final one\nscreen:\n%s", bars, screen)
	}
	if displayWidth(bars[0]) >= 120 {
		t.Errorf("status line wraps: %q", bars[0])
	}
	last := bars[0][strings.LastIndex(bars[0], " ")+1:]
	if name := last[strings.LastIndexAny(last, `\/`)+1:]; !strings.HasSuffix(name, ".txt") && !strings.HasSuffix(name, ".xls") || !strings.Contains(name, "_") {
		t.Errorf("the last file's name is cut: %q", bars[0])
	}
	for _, b := range bad {
		if !strings.Contains(screen, `営業\`+b) {
			t.Errorf("failure of %s not on screen", b)
		}
	}
	if got := strings.Count(screen, "    取り込みに失敗しました: "); got != len(bad) {
		t.Errorf("%d failure lines, want %d\n%s", got, len(bad), screen)
	}
	if strings.Contains(screen, "取り込みました（") {
		t.Errorf("lines of files that went well are on screen:\n%s", screen)
	}
	if !strings.Contains(screen, fmt.Sprintf("インデックス作成が完了しました。（成功: %d 件 / 失敗: %d 件）", n, len(bad))) {
		t.Errorf("no summary:\n%s", screen)
	}
	// The status line sits above the summary: nothing of the run after it
	// but the summary's lines.
	at := strings.Index(screen, bars[0])
	if after := screen[at:]; !strings.Contains(after, "インデックス作成が完了しました。") || strings.Contains(after, "[1/") {
		t.Errorf("status line is not just above the summary:\n%s", screen)
	}
}
