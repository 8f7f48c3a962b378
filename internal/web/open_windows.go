//go:build windows

package web

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// OpenPath opens a file or folder with its default application, as
// `start` does, through url.dll's FileProtocolHandler: unlike `cmd /c
// start`, it passes the path without cmd.exe, so `&`, `^` or `%` in a
// file name cannot run anything. Scripts open in Notepad
// (reference/search.md §9).
func OpenPath(path string) error {
	if !exists(path) {
		return fmt.Errorf("web: open %s: no such file", path)
	}
	if isScript(path) {
		notepad := filepath.Join(os.Getenv("SystemRoot"), "System32", "notepad.exe")
		return startDetached(exec.Command(notepad, path))
	}
	return startDetached(exec.Command("rundll32.exe", "url.dll,FileProtocolHandler", path))
}

// OpenURL opens a URL in the default browser.
func OpenURL(url string) error {
	return startDetached(exec.Command("rundll32.exe", "url.dll,FileProtocolHandler", url))
}

func startDetached(c *exec.Cmd) error {
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
