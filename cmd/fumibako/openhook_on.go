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
	return recordOpened(rec, p)
}

// openURL opens a page in the default browser (serve --open), or records
// it as openPath does.
func openURL(u string) error {
	rec := os.Getenv("FUMIBAKO_TEST_OPENED")
	if rec == "" {
		return web.OpenURL(u)
	}
	return recordOpened(rec, u)
}

// recordOpened appends what would be opened to the file rec.
func recordOpened(rec, p string) error {
	f, err := os.OpenFile(rec, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(p + "\n")
	return err
}
