//go:build testhooks

package main

import (
	"os"

	"github.com/fumibako/fumibako/internal/web"
)

// openPath opens a file with the desktop's application; in binaries built
// with -tags testhooks, when $FUMIBAKO_TEST_OPENED names a file, it
// appends the path there instead, so the end-to-end tests see what would
// be opened on every system (xdg-open, open, rundll32).
func openPath(p string) error {
	rec := os.Getenv("FUMIBAKO_TEST_OPENED")
	if rec == "" {
		return web.OpenPath(p)
	}
	f, err := os.OpenFile(rec, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(p + "\n")
	return err
}
