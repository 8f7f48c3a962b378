//go:build darwin

package web

import (
	"fmt"
	"os/exec"
)

// OpenPath opens a file or folder with its default application (open);
// scripts open in the default text editor (open -t).
func OpenPath(path string) error {
	if !exists(path) {
		return fmt.Errorf("web: open %s: no such file", path)
	}
	if isScript(path) {
		return startDetached(exec.Command("open", "-t", path))
	}
	return startDetached(exec.Command("open", path))
}

// OpenURL opens a URL in the default browser.
func OpenURL(url string) error { return startDetached(exec.Command("open", url)) }

func startDetached(c *exec.Cmd) error {
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
