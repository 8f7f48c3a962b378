//go:build !windows && !darwin

package web

import (
	"fmt"
	"os/exec"
)

// OpenPath opens a file or folder with the desktop's default application
// (xdg-open). It returns once the opener has started.
func OpenPath(path string) error {
	if !exists(path) {
		return fmt.Errorf("web: open %s: no such file", path)
	}
	return startDetached(exec.Command("xdg-open", path))
}

// OpenURL opens a URL in the default browser.
func OpenURL(url string) error { return startDetached(exec.Command("xdg-open", url)) }

func startDetached(c *exec.Cmd) error {
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
