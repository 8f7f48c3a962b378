//go:build !windows && !darwin

package web

import (
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// OpenPath opens a file or folder with the desktop's default application
// (xdg-open). xdg-open hands the file to the application and exits; its
// exit status says whether that worked (issue 18: a failure was reported
// as success). One that is still running after openWait has handed the
// file over to an application that it waits for: that counts as opened.
func OpenPath(path string) error {
	if !exists(path) {
		return fmt.Errorf("web: open %s: no such file", path)
	}
	return runOpener(exec.Command("xdg-open", path))
}

// OpenURL opens a URL in the default browser.
func OpenURL(url string) error { return startDetached(exec.Command("xdg-open", url)) }

// openWait bounds how long OpenPath waits for xdg-open's verdict.
var openWait = 3 * time.Second

// runOpener runs an opener and reports its failure in Japanese: it is
// shown after 元のファイルを開けませんでした.
func runOpener(c *exec.Cmd) error {
	if err := c.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New(c.Path + " が見つかりません（xdg-utils を入れてください）")
		}
		return errors.New(c.Path + " を起動できませんでした")
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("xdg-open が終了コード %d で終わりました（このファイルを開くアプリが設定されていない可能性があります）", ee.ExitCode())
		}
		if err != nil {
			return errors.New("xdg-open が異常終了しました")
		}
		return nil
	case <-time.After(openWait):
		return nil // the waiter goroutine reaps it when the application exits
	}
}

func startDetached(c *exec.Cmd) error {
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
